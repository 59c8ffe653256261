/// String reading: a fast path that slices the input when there are no escapes, and strict
/// UTF-8 and surrogate checks (invalid input is an error, never silently replaced).
extension JSONScanner {
    /// Reads a string starting at the opening quote.
    @inlinable package mutating func readString() throws(JSONParseError) -> String {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected a string but found \(describeCurrent())")
        }
        let open = index
        let start = index + 1
        var i = start
        var sawNonASCII = false
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                if sawNonASCII { try validateUTF8(from: start, to: i) }
                index = i + 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error("unescaped control character 0x\(String(b, radix: 16)) in string", at: i) }
            if b >= 0x80 { sawNonASCII = true }
            i += 1
        }
        guard i < bytes.count else { throw error("unterminated string", at: open) }
        // The bytes before the escape were scanned here: their non-ASCII flag carries over, so
        // the slow path validates the whole string, not only what follows the first escape.
        return try readEscapedString(open: open, firstEscape: i, sawNonASCII: sawNonASCII)
    }

    /// The slow path: copies segments and decodes escapes into a byte buffer. `sawNonASCII`
    /// says whether the bytes before `firstEscape` hold any non-ASCII byte.
    private mutating func readEscapedString(open: Int, firstEscape: Int, sawNonASCII prefixNonASCII: Bool) throws(JSONParseError) -> String {
        let start = open + 1
        var out: [UInt8] = []
        out.reserveCapacity(firstEscape - start + 16)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<firstEscape]))
        var i = firstEscape
        var sawNonASCII = prefixNonASCII
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                if sawNonASCII { try validateUTF8(from: start, to: i) }
                index = i + 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw error("unescaped control character 0x\(String(b, radix: 16)) in string", at: i) }
            if b != UInt8(ascii: "\\") {
                if b >= 0x80 { sawNonASCII = true }
                out.append(b)
                i += 1
                continue
            }
            guard i + 1 < bytes.count else { break }
            let e = bytes[i + 1]
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try readUnicodeEscape(at: i, next: &i)
                appendUTF8(scalar, to: &out)
                continue
            default:
                throw error("invalid escape sequence '\\\(Character(Unicode.Scalar(e)))' in string", at: i)
            }
            i += 2
        }
        throw error("unterminated string", at: open)
    }

    /// Decodes `\uXXXX` (and a following low surrogate) at `at`; sets `next` past it.
    private func readUnicodeEscape(at: Int, next: inout Int) throws(JSONParseError) -> Unicode.Scalar {
        let high = try hex4(at: at + 2)
        if (0xDC00...0xDFFF).contains(high) {
            throw error("lone low surrogate \\u\(String(high, radix: 16, uppercase: true)) in string", at: at)
        }
        if (0xD800...0xDBFF).contains(high) {
            guard at + 11 < bytes.count, bytes[at + 6] == UInt8(ascii: "\\"), bytes[at + 7] == UInt8(ascii: "u") else {
                throw error("lone high surrogate \\u\(String(high, radix: 16, uppercase: true)) in string", at: at)
            }
            let low = try hex4(at: at + 8)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("high surrogate not followed by a low surrogate in string", at: at)
            }
            next = at + 12
            let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw error("invalid surrogate pair", at: at) }
            return scalar
        }
        next = at + 6
        guard let scalar = Unicode.Scalar(high) else { throw error("invalid \\u escape", at: at) }
        return scalar
    }

    private func hex4(at: Int) throws(JSONParseError) -> UInt32 {
        guard at + 4 <= bytes.count else { throw error("truncated \\u escape in string", at: at - 2) }
        var v: UInt32 = 0
        for k in at..<(at + 4) {
            let b = bytes[k]
            let d: UInt8
            switch b {
            case 0x30...0x39: d = b - 0x30
            case 0x41...0x46: d = b - 0x41 + 10
            case 0x61...0x66: d = b - 0x61 + 10
            default: throw error("invalid hex digit in \\u escape", at: k)
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    private func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let v = scalar.value
        switch v {
        case 0..<0x80:
            out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(0xC0 | UInt8(v >> 6)); out.append(0x80 | UInt8(v & 0x3F))
        case 0x800..<0x10000:
            out.append(0xE0 | UInt8(v >> 12)); out.append(0x80 | UInt8((v >> 6) & 0x3F)); out.append(0x80 | UInt8(v & 0x3F))
        default:
            out.append(0xF0 | UInt8(v >> 18)); out.append(0x80 | UInt8((v >> 12) & 0x3F))
            out.append(0x80 | UInt8((v >> 6) & 0x3F)); out.append(0x80 | UInt8(v & 0x3F))
        }
    }

    /// Checks `bytes[from..<to]` is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
    @inlinable package func validateUTF8(from: Int, to end: Int) throws(JSONParseError) {
        if let bad = UTF8Validation.firstInvalidByte(in: UnsafeBufferPointer(rebasing: bytes[from..<end])).map({ from + $0 }) {
            throw error("invalid UTF-8 in string", at: bad)
        }
    }
}
