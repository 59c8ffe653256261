/// Why a set of changes cannot be applied to a document. Nothing is applied when this is thrown.
public struct ChangeSetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of problem.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name.
        public let rawValue: String
        /// Creates a kind from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }
        /// The changes build on operations this document does not have (apply those first).
        public static let missingDependency = Code(rawValue: "missingDependency")
        /// The changes contradict themselves (bad replica index, overlapping ids, cyclic origins...).
        public static let inconsistent = Code(rawValue: "inconsistent")
        /// The result would exceed the document's size limits.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// The note was loaded from a snapshot whose header, checksum, text and clock table are
        /// sound but whose runs are not (found when the index was first built, on this edit or
        /// merge); ``decodingError`` says what and at which byte. Nothing was changed; every later
        /// edit or merge of the note fails the same way (reload it from another copy).
        public static let corruptSnapshot = Code(rawValue: "corruptSnapshot")
    }

    /// The class of problem.
    public var code: Code
    /// What is wrong and where.
    public var message: String
    /// For ``Code/corruptSnapshot``: what is wrong with the snapshot and at which byte.
    public var decodingError: BinaryDecodingError?

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A ``Code/corruptSnapshot`` error for the decoder's `error`.
    public init(corruptSnapshot error: BinaryDecodingError) {
        self.init(.corruptSnapshot, "the note's snapshot is corrupt: \(error)")
        decodingError = error
    }

    /// "<code>: <message>".
    public var description: String { "\(code.rawValue): \(message)" }
}
