/// The change-tag rule every store applies to a save, in one place so all stores agree. The
/// verdict is neutral: a `RecordStore` reports it as a `RecordStoreError` (``check``), a
/// CloudKit-shaped server as the `CloudKitFailure` CloudKit gives for the item.
package enum OptimisticConcurrency {
    /// What the server does with one record of a save.
    package enum Verdict: Hashable, Sendable {
        /// The record has a change tag but no current version (it was deleted, or never
        /// existed): CloudKit's `unknownItem`. `message` says which.
        case unknownItem(message: String)
        /// The client's tag is not the server's (or the client creates a record that exists):
        /// CloudKit's `serverRecordChanged`, with the ancestor when the server still has it.
        case serverRecordChanged(ancestor: CloudRecord?, server: CloudRecord)
    }

    /// The verdict for saving `client` over `current` (nil: the save may proceed).
    ///
    /// - No server record, no client tag: a create.
    /// - No server record, client tag: `.unknownItem` (it was deleted, or never existed).
    /// - Server record, client tag equal to the server's: an update.
    /// - Otherwise `.serverRecordChanged`; the ancestor is the server's version with the client's
    ///   tag, looked up by `ancestor`, and nil for a create of an existing record.
    package static func verdict(client: CloudRecord, current: CloudRecord?, wasDeleted: Bool,
                                ancestor: (String) -> CloudRecord?) -> Verdict? {
        let name = client.recordName
        guard let server = current else {
            guard let tag = client.recordChangeTag else { return nil }
            let why = wasDeleted ? "was deleted" : "does not exist"
            return .unknownItem(message: "record '\(name)' with change tag \(tag) \(why) on the server")
        }
        if let tag = client.recordChangeTag, tag == server.recordChangeTag { return nil }
        return .serverRecordChanged(ancestor: client.recordChangeTag.flatMap(ancestor), server: server)
    }

    /// The item error of a `RecordStore` for saving `client` over `current` (nil: the save may
    /// proceed); see ``verdict(client:current:wasDeleted:ancestor:)``.
    package static func check(client: CloudRecord, current: CloudRecord?, wasDeleted: Bool,
                              ancestor: (String) -> CloudRecord?) -> RecordStoreError? {
        switch verdict(client: client, current: current, wasDeleted: wasDeleted, ancestor: ancestor) {
        case nil: return nil
        case .unknownItem(let message)?: return RecordStoreError(.unknownItem, recordName: client.recordName, message)
        case .serverRecordChanged(let ancestor, let server)?: return .serverRecordChanged(ancestor: ancestor, client: client, server: server)
        }
    }

    /// The first name `names` holds twice, with the message a store refuses the request with.
    package static func duplicate(in names: [String]) -> (name: String, message: String)? {
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            return (name, "record '\(name)' appears twice in one request")
        }
        return nil
    }

    /// Refuses a request that names one record twice.
    package static func checkUnique(_ names: [String]) throws(RecordStoreError) {
        if let duplicate = duplicate(in: names) {
            throw RecordStoreError(.invalidArguments, recordName: duplicate.name, duplicate.message)
        }
    }
}
