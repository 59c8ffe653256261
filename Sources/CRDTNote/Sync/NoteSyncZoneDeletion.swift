/// Whether the notes zone exists as far as the library knows (Docs/CloudKit.md, section 6).
public enum NoteSyncZoneStatus: Hashable, Sendable {
    /// Not known to exist (never saved, or lost): the transport saves it before sending notes.
    case needsSaving
    /// Saved or fetched from: the transport does not save it again (saving it on every launch
    /// would undo a deletion made while the app was closed).
    case exists
    /// Deleted (by the user, or by the app on another device) and not to be created again
    /// until the app consents (``NoteSyncCore/consentToRecreateZone()``): nothing is sent.
    case deletedAwaitingConsent
}

/// What ``NoteSyncCore/zoneWasDeleted(_:)`` did with a zone the server reports deleted.
public struct NoteSyncZoneDeletion: Hashable, Sendable {
    /// Why the zone went, as CloudKit says it (`CKDatabase.DatabaseChange.Deletion.Reason`).
    public enum Reason: Hashable, Sendable {
        /// Deleted (by the app on some device, or the user): handled as
        /// ``NoteSyncConfiguration/userDeletedZonePolicy`` says (by default, kept locally and
        /// not created again until the app consents).
        case deleted
        /// The user deleted the app's data from iCloud (Settings): the local copies of the
        /// zone's notes are removed, after being reported here, and nothing is sent again.
        case purged
        /// The user reset their encrypted data (lost keychain): every note is sent again.
        case encryptedDataReset
    }

    /// The reason handled.
    public var reason: Reason
    /// Notes removed from this device (purge), with their text, for the app to offer an export.
    public var removedNotes: [NoteSyncRemovedNote] = []
    /// Whether nothing is sent until the app calls ``NoteSyncCore/consentToRecreateZone()``.
    public var awaitsConsent = false
    /// Notes to send again into a zone created anew, sorted.
    public var notesToSend: [String] = []

    /// A zone deletion handled for `reason`.
    package init(reason: Reason) { self.reason = reason }
}

/// A note removed from this device because its zone was purged, as it was then.
public struct NoteSyncRemovedNote: Hashable, Sendable {
    /// The note's name.
    public var name: String
    /// Its listed title.
    public var title: String
    /// Its text; nil when the library could not read it (damaged).
    public var text: String?

    /// A removed note.
    package init(name: String, title: String, text: String?) {
        self.name = name
        self.title = title
        self.text = text
    }
}
