/// A 64-bit identifier of one writer of notes: an app process on one device (or a synthetic
/// editor such as an import).
///
/// Replica ids break ties between equal hybrid-logical-clock timestamps and name the author of
/// every character, so **two writers must never share one**: if they do, their edits get the
/// same ids, and merging them either fails (``ChangeSetError``) or garbles the text.
///
/// ## Making and keeping one
/// There is one way to make an id: ``random()``, 64 bits from the system's secure generator
/// (a collision between a user's devices is vanishingly unlikely; zero is never drawn). Make it
/// the first time a process writes notes, then keep it so the same writer uses the same id
/// across launches:
///
/// - Store it in the keychain as an item readable only on this device
///   (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`, not synchronizable). Such an item is
///   not restored from a backup onto another device and not synced through iCloud Keychain, so
///   a new phone set up from the old one's backup makes its own id. (`UserDefaults` and files in
///   the app container *are* restored onto other devices: do not keep the id there.)
/// - Give every process that writes notes its own id: an app and its extensions (share
///   extension, widget, intents) each make and keep their own, under their own keychain account
///   (e.g. the bundle identifier). Never put the id in an app-group container or a shared
///   keychain access group.
/// - Save it with ``rawValue`` (or its string form, ``description``) and read it back with
///   ``init(rawValue:)`` (or ``init(_:)``).
///
/// ## When it is lost
/// If the stored id is gone (keychain reset, app reinstalled, a new device), make a fresh one
/// with ``random()``. Never reuse an old id and never derive one from something stable such as a
/// device name: the old id's edits stay valid and keep merging with everyone's; the fresh id
/// simply becomes one more replica of each note it edits.
///
/// ```swift
/// let me = ReplicaID.random()          // first launch: then store `me.description` in the keychain
/// let stored = me.description          // "16045690984833335023"
/// let restored = ReplicaID(stored)     // later launches: ReplicaID(rawValue: 16045690984833335023)
/// ```
///
/// Docs/GETTING-STARTED.md has a complete keychain example.
public struct ReplicaID: RawRepresentable, Hashable, Comparable, Sendable {
    /// The identifier's bits: the form to persist.
    public var rawValue: UInt64

    /// Restores an identifier from its persisted bits (``rawValue``).
    ///
    /// For ids this writer made with ``random()`` and stored, ids read from records, and fixed ids
    /// in tests. Do not make up a new writer's id with it: use ``random()``.
    @inlinable
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Orders by the integer value, so ties between equal timestamps break the same way on every replica.
    @inlinable
    public static func < (lhs: ReplicaID, rhs: ReplicaID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// A fresh identifier for a new writer: 64 bits from the system's secure random number
    /// generator, never zero. Call it once per writer and keep the result (see ``ReplicaID``).
    public static func random() -> ReplicaID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A random identifier drawn from `generator` (seeded in tests and simulations for
    /// reproducible ids); never zero. Package-only: apps make ids with ``random()``.
    package static func random<G: RandomNumberGenerator>(using generator: inout G) -> ReplicaID {
        while true {
            let bits = generator.next()
            if bits != 0 { return ReplicaID(rawValue: bits) }
        }
    }
}

extension ReplicaID: CustomStringConvertible, LosslessStringConvertible {
    /// The identifier in decimal, e.g. `"42"`: a string form to persist (``init(_:)`` reads it back).
    public var description: String {
        String(rawValue)
    }

    /// Restores an identifier from its string form: decimal (`"42"`, what ``description`` writes)
    /// or `0x`-prefixed hexadecimal (`"0x2a"`, hex digits in either case).
    ///
    /// Returns `nil` for anything else: an empty string, a sign, whitespace, separators, non-ASCII
    /// digits, a bare `"0x"`, or a value that does not fit in 64 bits. Unlike `UInt64(_:radix:)` this
    /// rejects a leading `+`, so only canonical-looking ids are accepted from files and command lines.
    public init?(_ description: String) {
        let bytes = Array(description.utf8)
        let isHex = bytes.count >= 2 && bytes[0] == UInt8(ascii: "0")
            && (bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "X"))
        let digits = isHex ? bytes[2...] : bytes[...]
        guard !digits.isEmpty else { return nil }
        let radix: UInt64 = isHex ? 16 : 10
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = ReplicaID.digitValue(byte), digit < radix else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: radix)
            let (next, overflowB) = shifted.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            value = next
        }
        self.init(rawValue: value)
    }

    /// The value of one ASCII hex digit, or `nil` for any other byte.
    private static func digitValue(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt64(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}

extension ReplicaID: Codable {
    /// Decodes the identifier from a single unsigned integer (not a string).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(rawValue: try container.decode(UInt64.self))
    }

    /// Encodes the identifier as a single unsigned integer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
