/// Strict standard base64 (RFC 4648 §4, with `=` padding), as CloudKit Web Services uses
/// for BYTES fields. Strict means one spelling per byte string: no whitespace, no URL-safe
/// alphabet, padding required, unused trailing bits must be zero. That keeps
/// read -> write -> read exact.
enum Base64 {
    /// Why a base64 string was rejected, and at which character (0-based UTF-8 offset).
    struct DecodingError: Error, Hashable, Sendable {
        var offset: Int
        var message: String
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 0...63 for alphabet bytes, 0xFF otherwise.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// Encodes bytes with padding.
    static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        alphabet.withUnsafeBufferPointer { a in
            var i = 0
            while i + 3 <= bytes.count {
                let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                out.append(a[Int(v >> 18)]); out.append(a[Int(v >> 12 & 63)])
                out.append(a[Int(v >> 6 & 63)]); out.append(a[Int(v & 63)])
                i += 3
            }
            let rest = bytes.count - i
            if rest == 1 {
                let v = UInt32(bytes[i]) << 16
                out.append(a[Int(v >> 18)]); out.append(a[Int(v >> 12 & 63)])
                out.append(UInt8(ascii: "=")); out.append(UInt8(ascii: "="))
            } else if rest == 2 {
                let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
                out.append(a[Int(v >> 18)]); out.append(a[Int(v >> 12 & 63)])
                out.append(a[Int(v >> 6 & 63)]); out.append(UInt8(ascii: "="))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes a padded base64 string.
    static func decode(_ text: String) throws(DecodingError) -> [UInt8] {
        let result: Result<[UInt8], DecodingError>? = text.utf8.withContiguousStorageIfAvailable { decode($0) }
        if let result { return try result.get() }
        return try Array(text.utf8).withUnsafeBufferPointer { decode($0) }.get()
    }

    private static func decode(_ s: UnsafeBufferPointer<UInt8>) -> Result<[UInt8], DecodingError> {
        let n = s.count
        guard n % 4 == 0 else {
            return .failure(DecodingError(offset: n, message: "length \(n) is not a multiple of 4 (missing padding?)"))
        }
        if n == 0 { return .success([]) }
        var padding = 0
        if s[n - 1] == UInt8(ascii: "=") { padding = s[n - 2] == UInt8(ascii: "=") ? 2 : 1 }
        var out = [UInt8]()
        out.reserveCapacity(n / 4 * 3)
        return decodeTable.withUnsafeBufferPointer { table -> Result<[UInt8], DecodingError> in
            var i = 0
            while i < n {
                let last = i + 4 == n
                var v: UInt32 = 0
                for k in 0..<4 {
                    let c = s[i + k]
                    if last, k >= 4 - padding {
                        v <<= 6
                        continue
                    }
                    let d = table[Int(c)]
                    guard d != 0xFF else {
                        let what = c == UInt8(ascii: "=") ? "misplaced padding '='"
                            : c >= 0x21 && c < 0x7F ? "invalid character '\(Character(Unicode.Scalar(c)))'"
                            : "invalid byte 0x\(String(c, radix: 16, uppercase: true))"
                        return .failure(DecodingError(offset: i + k, message: what))
                    }
                    v = v << 6 | UInt32(d)
                }
                out.append(UInt8(v >> 16))
                if !(last && padding == 2) { out.append(UInt8(v >> 8 & 0xFF)) }
                if !(last && padding >= 1) { out.append(UInt8(v & 0xFF)) }
                if last, padding > 0 {
                    let unused: UInt32 = padding == 2 ? v & 0xFFFF : v & 0xFF
                    if unused != 0 {
                        return .failure(DecodingError(offset: n - padding - 1, message: "non-zero unused bits before padding"))
                    }
                }
                i += 4
            }
            return .success(out)
        }
    }
}
