/// Why decoding a byte string failed: what kind of problem, the byte offset where it was found, and a
/// human-readable message naming the field involved.
///
/// Every decoder in crdtnote reports malformed input with this error instead of trapping, because the
/// bytes come from other devices and cannot be trusted.
///
/// ```swift
/// do { _ = try reader.readLengthPrefixed("note title") }
/// catch { print(error) }   // "lengthTooLarge at byte 17: length 4294967295 of note title exceeds remaining 12 bytes"
/// ```
public struct BinaryDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The category of a decoding failure. Open-ended so new kinds can be added without breaking callers.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's stable name, used in messages.
        public let rawValue: String

        /// Creates a kind from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The input ended before the value being read was complete.
        public static let truncated = Code(rawValue: "truncated")
        /// A varint ran past 10 bytes or encoded a value that does not fit in 64 bits.
        public static let varintOverflow = Code(rawValue: "varintOverflow")
        /// A varint used more bytes than needed (e.g. `80 00` for zero); only the shortest form is accepted.
        public static let nonMinimalVarint = Code(rawValue: "nonMinimalVarint")
        /// A length or count field claims more data than the input can hold.
        public static let lengthTooLarge = Code(rawValue: "lengthTooLarge")
        /// The leading magic bytes do not identify the expected format.
        public static let badMagic = Code(rawValue: "badMagic")
        /// A stored checksum does not match the data it covers.
        public static let checksumMismatch = Code(rawValue: "checksumMismatch")
        /// The format version (or method) is not one this build understands.
        public static let unsupportedVersion = Code(rawValue: "unsupportedVersion")
        /// A field holds a value outside its allowed set or range.
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// Bytes remain after the value that should have ended the input.
        public static let trailingBytes = Code(rawValue: "trailingBytes")
        /// Decoding would produce more output than the caller allowed.
        public static let outputTooLarge = Code(rawValue: "outputTooLarge")

        /// The kind's name.
        public var description: String { rawValue }
    }

    /// The category of failure.
    public var code: Code
    /// Byte offset in the input where the problem was found (usually the start of the offending field).
    public var offset: Int
    /// What is wrong, e.g. "run length 4294967295 exceeds remaining 12 bytes".
    public var message: String

    /// Creates an error of `code` found at byte `offset`, described by `message`.
    public init(_ code: Code, at offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// "<kind> at byte <offset>: <message>".
    public var description: String { "\(code.rawValue) at byte \(offset): \(message)" }
}
