/// Why a set of changes cannot be applied to a document. Nothing is applied when this is thrown.
public struct ChangeSetError: CRDTNoteError {
    /// The class of problem.
    public typealias Code = CRDTNoteErrorCode<ChangeSetError>

    /// The class of problem.
    public var code: Code
    /// What is wrong and where.
    public var message: String
    /// For ``Code/corruptSnapshot``: what is wrong with the snapshot and at which byte.
    public var decodingError: BinaryDecodingError?

    /// Creates an error.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A ``Code/corruptSnapshot`` error for the decoder's `error`.
    package init(corruptSnapshot error: BinaryDecodingError) {
        self.init(.corruptSnapshot, "the note's snapshot is corrupt: \(error)")
        decodingError = error
    }
}

extension CRDTNoteErrorCode<ChangeSetError> {
    /// The changes build on operations this document does not have (apply those first).
    public static var missingDependency: Self { Self(rawValue: "missingDependency") }
    /// The changes contradict themselves (bad replica index, overlapping ids, cyclic origins...).
    public static var inconsistent: Self { Self(rawValue: "inconsistent") }
    /// The changes name characters this copy no longer holds because a compaction dropped them
    /// (Docs/FORMAT.md §4.7): changes made by a copy that was offline across the compaction,
    /// sent on their own. Merging that copy's whole state instead brings them back exactly;
    /// without it, merge its text three ways (Docs/RECORD-FORMAT.md, "Three-way text merge").
    public static var compactedOrigin: Self { Self(rawValue: "compactedOrigin") }
    /// The result would exceed the document's size limits.
    public static var tooLarge: Self { Self(rawValue: "tooLarge") }
    /// The note was loaded from a snapshot whose header, checksum, text and clock table are
    /// sound but whose runs are not (found when the index was first built, on this edit or
    /// merge); ``ChangeSetError/decodingError`` says what and at which byte. Nothing was
    /// changed; every later edit or merge of the note fails the same way (reload it from
    /// another copy).
    public static var corruptSnapshot: Self { Self(rawValue: "corruptSnapshot") }
}
