import CRDTNoteSupport
import CRDTNote
/// One zone of the in-memory database: live records, version history (for conflict ancestors)
/// and the change log behind change tokens.
struct InMemoryZone: Sendable {
    /// Distinguishes this zone from earlier zones of the same name (after a reset or delete).
    let incarnation: UInt64
    var records: [String: CloudRecord] = [:]
    /// Saved versions by record name and change tag, oldest first, at most `historyLimit` each.
    var history: [String: [CloudRecord]] = [:]
    /// Names deleted and not re-created: a tagged save to one is `.unknownItem`.
    var deletedNames: Set<String> = []
    /// Bumped when every change token of the zone expires (`FaultPlan.Kinds.changeTokenExpired`).
    var tokenEpoch: UInt64 = 0
    /// The last change sequence number handed out.
    var sequence: Int64 = 0
    /// Per record: the sequence number of its latest change and whether that was a delete.
    var lastChange: [String: (sequence: Int64, deleted: Bool)] = [:]

    init(incarnation: UInt64) { self.incarnation = incarnation }

    /// Checks `client` against the current version: the item failure CloudKit gives for it
    /// (`unknownItem`, or `serverRecordChanged` with ancestor, client and server records), if any.
    func saveFailure(for client: CloudRecord) -> CloudKitFailure? {
        let name = client.recordName
        let verdict = OptimisticConcurrency.verdict(client: client, current: records[name], wasDeleted: deletedNames.contains(name)) { tag in
            history[name]?.last { $0.recordChangeTag == tag }
        }
        switch verdict {
        case nil:
            return nil
        case .unknownItem(let message)?:
            return CloudKitFailure(.unknownItem, message)
        case .serverRecordChanged(let ancestor, let server)?:
            return CloudKitFailure(.serverRecordChanged,
                "record '\(name)' changed on the server: client tag \(client.recordChangeTag ?? "none"), server tag \(server.recordChangeTag ?? "none")",
                ancestor: ancestor, client: client, server: server)
        }
    }

    /// Stores `version` (already tagged) as the current version of its record.
    mutating func commit(_ version: CloudRecord, historyLimit: Int) {
        let name = version.recordName
        records[name] = version
        deletedNames.remove(name)
        var versions = history[name] ?? []
        versions.append(version)
        if versions.count > historyLimit { versions.removeFirst(versions.count - historyLimit) }
        history[name] = versions
        sequence += 1
        lastChange[name] = (sequence, false)
    }

    /// Deletes `name`; returns whether it existed.
    @discardableResult
    mutating func delete(_ name: String) -> Bool {
        guard records.removeValue(forKey: name) != nil else { return false }
        history[name] = nil
        deletedNames.insert(name)
        sequence += 1
        lastChange[name] = (sequence, true)
        return true
    }

    /// Changes after sequence `after`, at most `limit`.
    func changes(after: Int64, limit: Int) -> (changed: [CloudRecord], deleted: [String], last: Int64, moreComing: Bool) {
        let pending = lastChange.filter { $0.value.sequence > after }.sorted { $0.value.sequence < $1.value.sequence }
        let page = pending.prefix(max(limit, 1))
        var changed: [CloudRecord] = []
        var deleted: [String] = []
        for entry in page {
            if entry.value.deleted {
                deleted.append(entry.key)
            } else if let record = records[entry.key] {
                changed.append(record)
            }
        }
        let moreComing = pending.count > page.count
        return (changed, deleted, moreComing ? (page.last?.value.sequence ?? after) : sequence, moreComing)
    }
}
