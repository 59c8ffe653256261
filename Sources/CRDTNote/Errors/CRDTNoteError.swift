/// The shape every public crdtnote error shares: a ``code`` that says what kind of problem it
/// is, a ``message`` for people, and the ``subject`` it names when it names one (a byte offset,
/// a note, a record and field, a file, a JSON path). Each prints as `code (subject): message`.
///
/// Apps read these errors; the library makes them (their initialisers are `package`). The one
/// exception is ``CloudKitFailure``, which a ``CloudKitStyleDatabase`` makes for the library.
///
/// ```swift
/// do { try note.insert("Hi", atScalarOffset: 4) }
/// catch where error.code == .outOfBounds { print(error) }   // "outOfBounds: ..."
///
/// func log(_ error: some CRDTNoteError) { print(error.subject ?? "-", error.message) }
/// ```
public protocol CRDTNoteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error type whose codes this error takes: itself, or the type it stands in for
    /// (``CloudKitFailure`` takes ``RecordStoreError``'s).
    associatedtype CodeOwner
    /// What kind of problem; compare it with the members of the error's `Code`.
    var code: CRDTNoteErrorCode<CodeOwner> { get }
    /// What is wrong, for people.
    var message: String { get }
    /// What the error names, e.g. `byte 17`, `note 'groceries'`, `record 'a' field 'payload'`;
    /// nil when it names nothing in particular.
    var subject: String? { get }
}

extension CRDTNoteError {
    /// No subject.
    public var subject: String? { nil }

    /// "code (subject): message", or "code: message" without a subject.
    public var description: String { shapeDescription }

    /// "code (subject): message", for a conformer that adds to its description.
    var shapeDescription: String {
        code.rawValue + (subject.map { " (\($0))" } ?? "") + ": " + message
    }
}
