/// Why a payload could not be read. Nothing is decoded when this is thrown.
///
/// Two kinds, told apart by ``code``:
/// - ``Code/newerFormat``: the payload was written by a newer crdtnote and declares a minimum
///   reader version above ``NoteFormat/readerVersion``. Leave the data alone (never overwrite
///   it with an older state) and ask the user to update. ``requiredReader`` and
///   ``supportedReader`` hold the two versions.
/// - ``Code/corrupt``: the bytes are damaged or not a crdtnote payload. ``decodingError`` says
///   what is wrong and at which byte.
///
/// ```swift
/// do throws(PayloadError) {
///     note = try NoteText(snapshot: bytes, replica: device)
/// } catch {
///     if error.code == .newerFormat {
///         // keep the record as it is; offer an update
///     } else {
///         print(error)   // "corrupt: checksumMismatch (byte 14): body checksum is 0x…, header says 0x…"
///     }
/// }
/// ```
public struct PayloadError: CRDTNoteError {
    /// The category of a payload error; new kinds can be added without breaking callers.
    public typealias Code = CRDTNoteErrorCode<PayloadError>

    /// The category.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// For ``Code/newerFormat``: the minimum reader version the payload declares.
    public var requiredReader: UInt16?
    /// For ``Code/newerFormat``: the newest reader version this library implements.
    public var supportedReader: UInt16?
    /// For ``Code/corrupt``: what is wrong and at which byte.
    public var decodingError: BinaryDecodingError?

    /// An error of `code` described by `message`, with the data that goes with its kind.
    package init(_ code: Code, _ message: String, requiredReader: UInt16? = nil, supportedReader: UInt16? = nil,
                 decodingError: BinaryDecodingError? = nil) {
        self.code = code
        self.message = message
        self.requiredReader = requiredReader
        self.supportedReader = supportedReader
        self.decodingError = decodingError
    }

    /// A ``Code/newerFormat`` error: the payload needs reader version `requiredReader`, this
    /// library reads up to `supportedReader`.
    package static func newerFormat(requiredReader: UInt16, supportedReader: UInt16 = NoteFormat.readerVersion) -> PayloadError {
        PayloadError(.newerFormat,
                     "this payload needs reader version \(requiredReader), this crdtnote reads up to \(supportedReader); update crdtnote",
                     requiredReader: requiredReader, supportedReader: supportedReader)
    }

    /// A ``Code/corrupt`` error wrapping the decoder's `error`.
    package static func corrupt(_ error: BinaryDecodingError) -> PayloadError {
        PayloadError(.corrupt, error.description, decodingError: error)
    }
}

extension CRDTNoteErrorCode<PayloadError> {
    /// The payload needs a newer crdtnote; nothing was decoded. Leave the data alone.
    public static var newerFormat: Self { Self(rawValue: "newerFormat") }
    /// The bytes are damaged or not a crdtnote payload.
    public static var corrupt: Self { Self(rawValue: "corrupt") }
}
