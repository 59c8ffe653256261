import CRDTNoteSupport
import CRDTNoteToolSupport
import CRDTNote
/// Change notifications, as CloudKit's zone subscriptions deliver them (silent pushes): every
/// change to a subscribed zone notifies every registered device; notifications coalesce (a
/// device learns which subscriptions fired since it last looked, not how often) and can be
/// dropped on purpose. A zone's subscriptions vanish with the zone (reset, user deletion).
extension InMemoryCloudDatabase {
    /// Saves (creates or replaces) a subscription for changes to `zone`, as CloudKit saves a
    /// `CKRecordZoneSubscription` with silent notifications; `zoneNotFound` when the zone does
    /// not exist.
    public func saveZoneSubscription(_ subscriptionID: String, for zone: RecordZoneID) async throws(CloudKitFailure) {
        try begin(Self.zoneRequestFaults, zone: nil)
        guard zones[zone.zoneName] != nil, !userDeletedZones.contains(zone.zoneName) else {
            throw CloudKitFailure(.zoneNotFound, "cannot subscribe to zone '\(zone.zoneName)': it does not exist")
        }
        subscriptions[subscriptionID] = zone.zoneName
    }

    /// The subscriptions and the zone each watches.
    public var zoneSubscriptions: [String: String] { subscriptions }

    /// Registers a device for notifications (as an app registers with APNs).
    public func registerForNotifications(device: String) {
        if mailboxes[device] == nil { mailboxes[device] = [] }
    }

    /// The subscription ids that notified `device` since it last asked (coalesced), sorted.
    public func takeNotifications(for device: String) -> [String] {
        guard let box = mailboxes[device] else { return [] }
        mailboxes[device] = []
        return box.sorted()
    }

    /// Drops each notification with probability `rate`, drawn from a stream seeded with `seed`.
    public func setNotificationDropRate(_ rate: Double, seed: UInt64) {
        pushDropRate = min(max(rate, 0), 1)
        pushRandom = SplitMix64(seed: seed)
    }

    /// A change in `zoneName`: notifies every registered device of each subscription on it.
    func notify(_ zoneName: String) {
        let ids = subscriptions.filter { $0.value == zoneName }.keys.sorted()
        guard !ids.isEmpty else { return }
        for device in mailboxes.keys.sorted() {
            for id in ids {
                if pushDropRate > 0 && pushRandom.unit() < pushDropRate {
                    notificationsDropped += 1
                    continue
                }
                notificationsDelivered += 1
                mailboxes[device]?.insert(id)
            }
        }
    }

    /// The zone vanished or was created anew: its subscriptions are gone.
    func dropSubscriptions(of zoneName: String) {
        subscriptions = subscriptions.filter { $0.value != zoneName }
    }
}
