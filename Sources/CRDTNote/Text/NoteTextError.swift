/// Why a local edit was refused. The text is unchanged when this is thrown.
public struct NoteTextError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of problem.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name.
        public let rawValue: String
        /// Creates a kind from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }
        /// An offset or range lies outside the text.
        public static let outOfBounds = Code(rawValue: "outOfBounds")
        /// A UTF-16 offset falls between the two halves of a surrogate pair.
        public static let insideSurrogatePair = Code(rawValue: "insideSurrogatePair")
        /// The note would exceed the format's limits (4 GiB of text, 2^32 characters per replica).
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// Inserted bytes are not valid UTF-8 (only the package's own byte-level entry point takes bytes).
        package static let invalidUTF8 = Code(rawValue: "invalidUTF8")
    }

    /// The class of problem.
    public var code: Code
    /// What is wrong, with the offending offsets.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// "<code>: <message>".
    public var description: String { "\(code.rawValue): \(message)" }
}
