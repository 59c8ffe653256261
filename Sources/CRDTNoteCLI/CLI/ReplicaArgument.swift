import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport

extension ParsedArguments {
    /// The value of option `name` as a replica identifier.
    func replicaID(_ name: String) throws(UsageError) -> ReplicaID? {
        guard let text = try value(name) else { return nil }
        // The library's parser, so ids read the same here as everywhere else.
        guard let replica = ReplicaID(text) else {
            throw usageError("option '\(name)' needs a replica ID: a decimal or 0x-hex number that fits in 64 bits, got '\(text)'")
        }
        return replica
    }
}
