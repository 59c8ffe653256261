/// Versions of crdtnote's binary payload format (see Docs/FORMAT.md).
public enum NoteFormat {
    /// The format version this library writes.
    public static let version: UInt16 = 1
    /// The newest "minimum reader version" this library can decode. A payload that
    /// requires a newer reader is refused with ``PayloadError/newerFormat(requiredReader:supportedReader:)``.
    public static let readerVersion: UInt16 = 1
    /// The four magic bytes every payload starts with: "CRNT".
    public static let magic: [UInt8] = [0x43, 0x52, 0x4E, 0x54]
    /// Size of the fixed header in bytes.
    public static let headerSize = 18
}

/// What a payload holds.
public enum PayloadKind: UInt8, Sendable, Hashable {
    /// The full state of a note.
    case snapshot = 1
    /// The operations a peer lacks (``NoteChanges``).
    case changes = 2
}

/// Why a payload could not be read.
public enum PayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The payload needs a newer crdtnote; nothing was decoded. Leave the data alone.
    case newerFormat(requiredReader: UInt16, supportedReader: UInt16)
    /// The bytes are damaged or not a crdtnote payload; the error says what and at which byte.
    case corrupt(BinaryDecodingError)

    public var description: String {
        switch self {
        case let .newerFormat(required, supported):
            return "newer format: this payload needs reader version \(required), this crdtnote reads up to \(supported); update crdtnote"
        case let .corrupt(error):
            return "corrupt payload: \(error)"
        }
    }
}

/// Limits that keep decoding of untrusted payloads bounded in memory.
public struct DecodingLimits: Sendable, Hashable {
    /// Most element ids (characters ever inserted, tombstones included) a payload may declare.
    public var maximumElements: Int
    /// Most replicas a payload may list.
    public var maximumReplicas: Int

    /// Creates limits.
    public init(maximumElements: Int = 1 << 26, maximumReplicas: Int = 1 << 16) {
        self.maximumElements = maximumElements
        self.maximumReplicas = maximumReplicas
    }

    /// 67 million elements (about 270 MB of index) and 65,536 replicas.
    public static let `default` = DecodingLimits()
}
