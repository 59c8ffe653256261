/// Push-driven sync: the zone subscription and the remote-notification entry point.
extension NoteSyncEngine {
    /// Saves the zone subscription (`NoteSyncConfiguration.subscriptionID`) unless the state
    /// says it is saved already; a failure is left for the next sync (polling still works).
    func ensureSubscription() async throws(NoteSyncError) {
        guard let id = configuration.subscriptionID, try transportState().subscriptionID != id,
              let subscribing = store as? any RecordZoneSubscribing else { return }
        var attempt = 0
        while true {
            attempt += 1
            do throws(RecordStoreError) {
                try await subscribing.saveZoneSubscription(id, for: configuration.zone)
            } catch {
                guard error.isTransient, attempt < configuration.maxAttempts else { return }
                try await backOff(after: error, attempt: attempt)
                continue
            }
            var state = try transportState()
            state.subscriptionID = id
            try saveTransport(state)
            return
        }
    }

    /// The id of the subscription this engine saved (kept in the library), nil if none.
    public var savedSubscriptionID: String? {
        get throws(NoteSyncError) { try transportState().subscriptionID }
    }

    /// Handles a remote notification: when it comes from this engine's subscription
    /// (`subscriptionID` read from the notification, e.g. with
    /// `NoteSyncEngine.subscriptionID(fromRemoteNotification:)` on Apple platforms), fetches
    /// the zone's changes and returns what they did (`receivedNewData` for the background
    /// fetch's completion handler); returns nil, doing nothing, for any other notification.
    /// Pushes can be dropped or coalesced: keep syncing periodically as well.
    public func handleRemoteNotification(subscriptionID: String?) async throws(NoteSyncError) -> NoteSyncReport? {
        guard let id = configuration.subscriptionID, subscriptionID == id else { return nil }
        _ = core.takeReport()
        try await fetchRemoteChanges()
        return core.takeReport()
    }
}

// The CloudKit side of the entry point: reading the subscription id of a remote notification.
#if canImport(CloudKit)
import CloudKit

extension NoteSyncEngine {
    /// The subscription id of a CloudKit remote notification (`userInfo` of
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`), nil when it is not
    /// a CloudKit notification.
    public nonisolated static func subscriptionID(fromRemoteNotification userInfo: [AnyHashable: Any]) -> String? {
        CKNotification(fromRemoteNotificationDictionary: userInfo)?.subscriptionID
    }
}
#endif
