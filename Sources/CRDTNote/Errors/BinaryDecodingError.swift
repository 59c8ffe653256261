/// Why decoding a byte string failed: what kind of problem, the byte offset where it was found, and a
/// human-readable message naming the field involved.
///
/// Every decoder in crdtnote reports malformed input with this error instead of trapping, because the
/// bytes come from other devices and cannot be trusted.
///
/// ```swift
/// do { _ = try reader.readLengthPrefixed("note title") }
/// catch { print(error) }   // "lengthTooLarge (byte 17): length 4294967295 of note title exceeds remaining 12 bytes"
/// ```
public struct BinaryDecodingError: CRDTNoteError {
    /// The category of a decoding failure. Open-ended so new kinds can be added without breaking callers.
    public typealias Code = CRDTNoteErrorCode<BinaryDecodingError>

    /// The category of failure.
    public var code: Code
    /// Byte offset in the input where the problem was found (usually the start of the offending field).
    public var offset: Int
    /// What is wrong, e.g. "run length 4294967295 exceeds remaining 12 bytes".
    public var message: String

    /// Creates an error of `code` found at byte `offset`, described by `message`.
    package init(_ code: Code, at offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// "byte <offset>".
    public var subject: String? { "byte \(offset)" }
}

extension CRDTNoteErrorCode<BinaryDecodingError> {
    /// The input ended before the value being read was complete.
    public static var truncated: Self { Self(rawValue: "truncated") }
    /// A varint ran past 10 bytes or encoded a value that does not fit in 64 bits.
    public static var varintOverflow: Self { Self(rawValue: "varintOverflow") }
    /// A varint used more bytes than needed (e.g. `80 00` for zero); only the shortest form is accepted.
    public static var nonMinimalVarint: Self { Self(rawValue: "nonMinimalVarint") }
    /// A length or count field claims more data than the input can hold.
    public static var lengthTooLarge: Self { Self(rawValue: "lengthTooLarge") }
    /// The leading magic bytes do not identify the expected format.
    public static var badMagic: Self { Self(rawValue: "badMagic") }
    /// A stored checksum does not match the data it covers.
    public static var checksumMismatch: Self { Self(rawValue: "checksumMismatch") }
    /// The format version (or method) is not one this build understands.
    public static var unsupportedVersion: Self { Self(rawValue: "unsupportedVersion") }
    /// A field holds a value outside its allowed set or range.
    public static var invalidValue: Self { Self(rawValue: "invalidValue") }
    /// Bytes remain after the value that should have ended the input.
    public static var trailingBytes: Self { Self(rawValue: "trailingBytes") }
    /// Decoding would produce more output than the caller allowed.
    public static var outputTooLarge: Self { Self(rawValue: "outputTooLarge") }
}
