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
    /// Every change in sequence order; an entry is current while `lastChange` has its sequence.
    var changeLog: [(sequence: Int64, name: String)] = []

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
        logChange(name)
    }

    /// Appends the latest change of `name` to the log, dropping superseded entries now and then.
    private mutating func logChange(_ name: String) {
        changeLog.append((sequence, name))
        if changeLog.count > 2 * lastChange.count + 64 {
            changeLog = changeLog.filter { lastChange[$0.name]?.sequence == $0.sequence }
        }
    }

    /// Deletes `name`; returns whether it existed.
    @discardableResult
    mutating func delete(_ name: String) -> Bool {
        guard records.removeValue(forKey: name) != nil else { return false }
        history[name] = nil
        deletedNames.insert(name)
        sequence += 1
        lastChange[name] = (sequence, true)
        logChange(name)
        return true
    }

    /// Changes after sequence `after`, at most `limit`.
    func changes(after: Int64, limit: Int) -> (changed: [CloudRecord], deleted: [String], last: Int64, moreComing: Bool) {
        // The first entry after `after` (the log is in sequence order).
        var low = 0, high = changeLog.count
        while low < high {
            let mid = (low + high) / 2
            if changeLog[mid].sequence <= after { low = mid + 1 } else { high = mid }
        }
        var changed: [CloudRecord] = []
        var deleted: [String] = []
        var last = after
        var taken = 0
        var moreComing = false
        for entry in changeLog[low...] {
            guard let current = lastChange[entry.name], current.sequence == entry.sequence else { continue }
            if taken == max(limit, 1) {
                moreComing = true
                break
            }
            taken += 1
            last = entry.sequence
            if current.deleted {
                deleted.append(entry.name)
            } else if let record = records[entry.name] {
                changed.append(record)
            }
        }
        return (changed, deleted, moreComing ? last : sequence, moreComing)
    }
}
