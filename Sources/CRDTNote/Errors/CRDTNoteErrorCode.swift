/// What kind of problem a ``CRDTNoteError`` is: a stable name such as `"outOfBounds"`, one set
/// of names per error type (`Owner`). Each error's `Code` is this type; its kinds are the
/// static members, so `error.code == .tooLarge` reads as with an enum, and new kinds can be
/// added without breaking callers.
public struct CRDTNoteErrorCode<Owner>: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The kind's stable name, used in descriptions.
    public let rawValue: String

    /// The kind named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The kind's name.
    public var description: String { rawValue }
}
