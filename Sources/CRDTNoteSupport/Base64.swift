import Foundation

/// Strict standard base64 (RFC 4648 §4, with `=` padding), as CloudKit Web Services uses
/// for BYTES fields. Strict means one spelling per byte string: no whitespace, no URL-safe
/// alphabet, padding required, unused trailing bits zero. Foundation decodes; re-encoding and
/// comparing with the input enforces the one spelling, so read -> write -> read is exact.
package enum Base64 {
    /// Why a base64 string was rejected, and at which character (0-based UTF-8 offset).
    package struct DecodingError: Error, Hashable, Sendable {
        package var offset: Int
        package var message: String
    }

    /// Encodes bytes with padding.
    package static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// Decodes a padded base64 string in its one canonical spelling.
    package static func decode(_ text: String) throws(DecodingError) -> [UInt8] {
        if let data = Data(base64Encoded: text), data.base64EncodedString() == text {
            return [UInt8](data)
        }
        throw firstProblem(in: Array(text.utf8))
    }

    /// Names the first character that makes `utf8` non-canonical base64.
    private static func firstProblem(in utf8: [UInt8]) -> DecodingError {
        func isAlphabet(_ c: UInt8) -> Bool {
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2F
        }
        let n = utf8.count
        let padding = utf8.reversed().prefix(while: { $0 == UInt8(ascii: "=") }).count
        if n % 4 != 0 {
            return DecodingError(offset: n, message: "length \(n) is not a multiple of 4 (missing padding?)")
        }
        if let bad = utf8[0..<(n - padding)].firstIndex(where: { !isAlphabet($0) }) {
            return DecodingError(offset: bad, message: "byte 0x\(String(utf8[bad], radix: 16)) is not in the base64 alphabet")
        }
        if padding > 2 {
            return DecodingError(offset: n - padding, message: "more than two padding characters")
        }
        return DecodingError(offset: max(0, n - padding - 1), message: "unused bits of the last character are not zero")
    }
}
