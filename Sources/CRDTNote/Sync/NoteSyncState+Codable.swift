import CRDTNoteSupport

/// Why a persisted `NoteSyncState` cannot be decoded.
public struct NoteSyncStateDecodingError: CRDTNoteError {
    /// The class of problem.
    public typealias Code = CRDTNoteErrorCode<NoteSyncStateDecodingError>

    /// The class of problem (one so far).
    public var code: Code = .unsupportedVersion
    /// The layout version found.
    public var version: Int
    /// What is wrong, for people.
    public var message: String
}

extension CRDTNoteErrorCode<NoteSyncStateDecodingError> {
    /// The layout version is not one this crdtnote reads (a newer crdtnote wrote it).
    public static var unsupportedVersion: Self { Self(rawValue: "unsupportedVersion") }
}

extension NoteSyncState: Codable {
    private enum Key: String, CodingKey { case version, token, notes, pendingDeletes, subscriptionID }

    /// Decodes a state; a `version` newer than ``currentVersion`` throws
    /// ``NoteSyncStateDecodingError`` (keep the data and update crdtnote; never start from an
    /// empty state instead, that would lose unsaved edits).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version <= Self.currentVersion, version >= 1 else {
            throw NoteSyncStateDecodingError(version: version,
                message: "sync state version \(version) is not supported by this crdtnote (it reads 1...\(Self.currentVersion)); update crdtnote")
        }
        self.init()
        self.version = version
        token = try container.decodeIfPresent(String.self, forKey: .token).map { text in
            guard let token = ChangeToken(base64String: text) else {
                throw DecodingError.dataCorruptedError(forKey: .token, in: container, debugDescription: "change token is not base64")
            }
            return token
        }
        notes = try container.decode([String: SavedNote].self, forKey: .notes)
        pendingDeletes = try container.decode([String: PendingDelete].self, forKey: .pendingDeletes)
        subscriptionID = try container.decodeIfPresent(String.self, forKey: .subscriptionID)
    }

    /// Encodes the state with its version.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(token?.base64String, forKey: .token)
        try container.encode(notes, forKey: .notes)
        try container.encode(pendingDeletes, forKey: .pendingDeletes)
        try container.encodeIfPresent(subscriptionID, forKey: .subscriptionID)
    }
}

extension NoteSyncState.PendingDelete: Codable {
    private enum Key: String, CodingKey { case changeTag }

    /// Decodes a pending delete.
    public init(from decoder: any Decoder) throws {
        changeTag = try decoder.container(keyedBy: Key.self).decodeIfPresent(String.self, forKey: .changeTag)
    }

    /// Encodes a pending delete (no `changeTag` key when the version had none).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(changeTag, forKey: .changeTag)
    }
}

extension NoteSyncState.SavedNote: Codable {
    private enum Key: String, CodingKey { case snapshot, base, hasUnsavedChanges }

    /// Decodes a persisted note.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        snapshot = try archiveDecodeBase64(container.decode(String.self, forKey: .snapshot))
        base = try container.decodeIfPresent(StoredRecord.self, forKey: .base)?.record()
        hasUnsavedChanges = try container.decode(Bool.self, forKey: .hasUnsavedChanges)
    }

    /// Encodes the note (snapshot as base64, base record with its fields and asset bytes).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(Base64.encode(snapshot), forKey: .snapshot)
        try container.encodeIfPresent(base.map(StoredRecord.init), forKey: .base)
        try container.encode(hasUnsavedChanges, forKey: .hasUnsavedChanges)
    }
}

