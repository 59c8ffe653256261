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
    }

    /// The class of problem.
    public var code: Code
    /// What is wrong and where.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// "<code>: <message>".
    public var description: String { "\(code.rawValue): \(message)" }
}
