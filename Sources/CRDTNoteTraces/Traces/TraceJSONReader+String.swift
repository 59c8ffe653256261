import CRDTNoteSupport
import CRDTNote
/// Strings: escapes decoded, control characters refused, UTF-8 checked byte by byte as it
/// streams past (a string may span chunks), so an error names the exact byte.
extension TraceJSONReader {
    /// Reads a string starting at its opening quote; appends its UTF-8 to `out` when `keep`.
    mutating func readString(into out: inout [UInt8], keep: Bool) throws(TraceReadError) {
        guard try skipWhitespace() == UInt8(ascii: "\"") else {
            throw source.error("expected a string but found \(try describeCurrent())")
        }
        let open = source.mark
        source.advance()
        var utf8 = UTF8StreamCheck()
        while true {
            guard let b = try source.peek() else { throw source.error("unterminated string", at: open) }
            if b < 0x80 {
                if utf8.isInsideSequence { throw invalidUTF8(utf8) }
                if b == UInt8(ascii: "\"") {
                    source.advance()
                    return
                }
                if b == UInt8(ascii: "\\") {
                    try readEscape(into: &out, keep: keep)
                    continue
                }
                if b < 0x20 { throw source.error("unescaped control character 0x\(String(b, radix: 16)) in string") }
            } else if !utf8.accept(b, at: source.mark) {
                throw invalidUTF8(utf8)
            }
            if keep { out.append(b) }
            source.advance()
        }
    }

    /// "invalid UTF-8 in string" at the first byte of the broken sequence.
    private func invalidUTF8(_ check: UTF8StreamCheck) -> TraceReadError {
        source.error("invalid UTF-8 in string", at: check.sequenceStart)
    }

    /// Decodes the escape at the current backslash.
    private mutating func readEscape(into out: inout [UInt8], keep: Bool) throws(TraceReadError) {
        let at = source.mark
        source.advance()
        guard let e = try source.peek() else { throw source.error("unterminated string") }
        let decoded: UInt8
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded = e
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            source.advance()
            let scalar = try readUnicodeEscape(at: at)
            if keep { out.append(contentsOf: scalar.utf8) }
            return
        default:
            throw source.error("invalid escape sequence '\\\(Character(Unicode.Scalar(e)))' in string", at: at)
        }
        source.advance()
        if keep { out.append(decoded) }
    }

    /// Decodes `XXXX` after `\u` (and a following `\uXXXX` low surrogate); `at` is the backslash.
    private mutating func readUnicodeEscape(at: TraceJSONMark) throws(TraceReadError) -> Unicode.Scalar {
        let high = try hex4(escapeAt: at)
        if (0xDC00...0xDFFF).contains(high) {
            throw source.error("lone low surrogate \\u\(String(high, radix: 16, uppercase: true)) in string", at: at)
        }
        if (0xD800...0xDBFF).contains(high) {
            guard try source.peek() == UInt8(ascii: "\\") else {
                throw source.error("lone high surrogate \\u\(String(high, radix: 16, uppercase: true)) in string", at: at)
            }
            let lowAt = source.mark
            source.advance()
            guard try source.peek() == UInt8(ascii: "u") else {
                throw source.error("lone high surrogate \\u\(String(high, radix: 16, uppercase: true)) in string", at: at)
            }
            source.advance()
            let low = try hex4(escapeAt: lowAt)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw source.error("high surrogate not followed by a low surrogate in string", at: at)
            }
            guard let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) else {
                throw source.error("invalid surrogate pair", at: at)
            }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw source.error("invalid \\u escape", at: at) }
        return scalar
    }

    /// Four hex digits of a `\u` escape starting at `escapeAt`.
    private mutating func hex4(escapeAt: TraceJSONMark) throws(TraceReadError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let b = try source.peek() else { throw source.error("truncated \\u escape in string", at: escapeAt) }
            let d: UInt8
            switch b {
            case 0x30...0x39: d = b - 0x30
            case 0x41...0x46: d = b - 0x41 + 10
            case 0x61...0x66: d = b - 0x61 + 10
            default: throw source.error("invalid hex digit in \\u escape")
            }
            v = v << 4 | UInt32(d)
            source.advance()
        }
        return v
    }
}

/// Checks UTF-8 one non-ASCII byte at a time (RFC 3629: no overlong forms, no surrogates,
/// nothing past U+10FFFF), remembering where the current multi-byte sequence started.
struct UTF8StreamCheck {
    /// Continuation bytes the current sequence still needs.
    private var needed = 0
    /// Allowed range of the next continuation byte (narrower right after some lead bytes).
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF
    /// Where the current (or last) sequence started.
    private(set) var sequenceStart = TraceJSONMark(offset: 0, line: 1, lineStart: 0)

    /// Whether a multi-byte sequence is incomplete.
    var isInsideSequence: Bool { needed > 0 }

    /// Takes byte `b` (>= 0x80) found at `mark`; false when it cannot continue or start a sequence.
    mutating func accept(_ b: UInt8, at mark: TraceJSONMark) -> Bool {
        if needed > 0 {
            guard b >= low, b <= high else { return false }
            needed -= 1
            low = 0x80
            high = 0xBF
            return true
        }
        sequenceStart = mark
        guard let (count, first, last) = UTF8Validation.sequence(startingWith: b) else { return false }
        needed = count
        low = first
        high = last
        return true
    }
}
