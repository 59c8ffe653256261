/// Why a set of changes cannot be applied to a document. Nothing is applied when this is thrown.
public struct ChangeSetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of problem.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        /// Creates a kind from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The changes build on operations this document does not have (apply those first).
        public static let missingDependency = Kind(rawValue: "missingDependency")
        /// The changes contradict themselves (bad replica index, overlapping ids, cyclic origins...).
        public static let inconsistent = Kind(rawValue: "inconsistent")
        /// The result would exceed the document's size limits.
        public static let tooLarge = Kind(rawValue: "tooLarge")
    }

    /// The class of problem.
    public var kind: Kind
    /// What is wrong and where.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
