/// The change-tag rule every store applies to a save, in one place so all stores agree.
package enum OptimisticConcurrency {
    /// The item error for saving `client` over `current` (nil: the save may proceed).
    ///
    /// - No server record, no client tag: a create.
    /// - No server record, client tag: `.unknownItem` (it was deleted, or never existed).
    /// - Server record, client tag equal to the server's: an update.
    /// - Otherwise `.serverRecordChanged`; the ancestor is the server's version with the client's
    ///   tag, looked up by `ancestor`, and nil for a create of an existing record.
    package static func check(client: CloudRecord, current: CloudRecord?, wasDeleted: Bool,
                      ancestor: (String) -> CloudRecord?) -> RecordStoreError? {
        let name = client.recordName
        guard let server = current else {
            guard let tag = client.recordChangeTag else { return nil }
            let why = wasDeleted ? "was deleted" : "does not exist"
            return RecordStoreError(.unknownItem, recordName: name, "record '\(name)' with change tag \(tag) \(why) on the server")
        }
        if let tag = client.recordChangeTag, tag == server.recordChangeTag { return nil }
        return .serverRecordChanged(ancestor: client.recordChangeTag.flatMap(ancestor), client: client, server: server)
    }

    /// Refuses a request that names one record twice.
    package static func checkUnique(_ names: [String]) throws(RecordStoreError) {
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            throw RecordStoreError(.invalidArguments, recordName: name, "record '\(name)' appears twice in one request")
        }
    }
}
