import CRDTNoteSupport
import CRDTNote
/// A streaming JSON reader for editing traces: the RFC 8259 grammar over a ``TraceJSONSource``,
/// one byte at a time, so a 16 MB trace is read without ever being held whole.
///
/// It checks what `JSONScanner` checks (duplicate keys in every object, strict strings and
/// UTF-8, integer ranges, nesting depth) and reports errors the same way ("JSON error at
/// line:column (byte N): ..."). Objects and arrays are read through callbacks, like the scanner's.
struct TraceJSONReader {
    var source: TraceJSONSource
    /// Reused buffer for keys and for strings read into a `String`.
    var scratch: [UInt8] = []
    /// Reused buffer for the text of a number (for messages).
    var numberText: [UInt8] = []
    /// Deepest nesting accepted (objects and arrays).
    static let maxDepth = 64

    init(_ source: TraceJSONSource) {
        self.source = source
    }

    // MARK: Bytes

    /// Skips whitespace; returns the next byte (not consumed), nil at the end of the input.
    @inline(__always)
    mutating func skipWhitespace() throws(TraceReadError) -> UInt8? {
        while let b = try source.peek() {
            switch b {
            case 0x20, 0x09, 0x0D: source.advance()
            case 0x0A: source.advanceNewline()
            default: return b
            }
        }
        return nil
    }

    /// The next non-whitespace byte, not consumed; an error at the end of the input.
    @inline(__always)
    mutating func peekValue() throws(TraceReadError) -> UInt8 {
        guard let b = try skipWhitespace() else { throw source.error("unexpected end of input") }
        return b
    }

    /// Consumes `byte` (after whitespace) or fails with "`expected` but found ...".
    mutating func expect(_ byte: UInt8, _ expected: StaticString) throws(TraceReadError) {
        guard try skipWhitespace() == byte else {
            throw source.error("\(expected) but found \(try describeCurrent())")
        }
        source.advance()
    }

    /// Describes the byte at the current position for error messages.
    mutating func describeCurrent() throws(TraceReadError) -> String {
        guard let b = try source.peek() else { return "end of input" }
        if b >= 0x21, b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    /// Skips a UTF-8 byte order mark at the very start (RFC 8259 section 8.1 lets readers ignore it).
    mutating func skipByteOrderMark() throws(TraceReadError) {
        guard source.offset == 0, try source.peek() == 0xEF else { return }
        for expected: UInt8 in [0xEF, 0xBB, 0xBF] {
            guard try source.peek() == expected else { throw source.error("incomplete UTF-8 byte order mark") }
            source.advance()
        }
    }

    // MARK: Containers

    /// Reads `[ ... ]`, calling `element` with the reader at each element and its index.
    mutating func readArray(
        depth: Int, _ element: (inout TraceJSONReader, Int) throws(TraceReadError) -> Void
    ) throws(TraceReadError) {
        try expect(UInt8(ascii: "["), "expected '['")
        guard depth < Self.maxDepth else {
            throw source.error("nesting deeper than \(Self.maxDepth) levels", at: markBefore())
        }
        if try peekValue() == UInt8(ascii: "]") {
            source.advance()
            return
        }
        var n = 0
        while true {
            _ = try skipWhitespace()
            try element(&self, n)
            n += 1
            let b = try peekValue()
            if b == UInt8(ascii: ",") { source.advance(); continue }
            if b == UInt8(ascii: "]") { source.advance(); return }
            throw source.error("expected ',' or ']' in array but found \(try describeCurrent())")
        }
    }

    /// Reads `{ ... }`, calling `member` with the reader at each value and the index of its key
    /// in `keys` (nil for another key). A key given twice is an error at its second occurrence.
    mutating func readObject(
        depth: Int, keys: [[UInt8]], _ member: (inout TraceJSONReader, Int?) throws(TraceReadError) -> Void
    ) throws(TraceReadError) {
        try expect(UInt8(ascii: "{"), "expected '{'")
        guard depth < Self.maxDepth else {
            throw source.error("nesting deeper than \(Self.maxDepth) levels", at: markBefore())
        }
        if try peekValue() == UInt8(ascii: "}") {
            source.advance()
            return
        }
        var seenKnown: UInt64 = 0
        var seenOther: [[UInt8]] = []
        while true {
            guard try peekValue() == UInt8(ascii: "\"") else {
                throw source.error("expected a string key in object but found \(try describeCurrent())")
            }
            let keyMark = source.mark
            var key = scratch
            scratch = []
            key.removeAll(keepingCapacity: true)
            try readString(into: &key, keep: true)
            scratch = key
            let known = keys.firstIndex(of: key)
            if let known {
                guard seenKnown & (1 << UInt64(known)) == 0 else { throw duplicateKey(key, keyMark) }
                seenKnown |= 1 << UInt64(known)
            } else {
                guard !seenOther.contains(key) else { throw duplicateKey(key, keyMark) }
                seenOther.append(key)
            }
            try expect(UInt8(ascii: ":"), "expected ':' after object key")
            _ = try skipWhitespace()
            try member(&self, known)
            let b = try peekValue()
            if b == UInt8(ascii: ",") { source.advance(); continue }
            if b == UInt8(ascii: "}") { source.advance(); return }
            throw source.error("expected ',' or '}' in object but found \(try describeCurrent())")
        }
    }

    /// The position of the byte just consumed (same line: it was a bracket).
    func markBefore() -> TraceJSONMark {
        var m = source.mark
        m.offset -= 1
        return m
    }

    /// "duplicate key "k" in object", at the key.
    func duplicateKey(_ key: [UInt8], _ mark: TraceJSONMark) -> TraceReadError {
        var shown = ""
        for (n, scalar) in String(decoding: key, as: UTF8.self).unicodeScalars.enumerated() {
            if n == 64 {
                shown += "..."
                break
            }
            shown += scalar.value < 0x20 || scalar == "\"" || scalar == "\\" ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return source.error("duplicate key \"\(shown)\" in object", at: mark)
    }

    // MARK: Values

    /// Skips any value, checking it is well-formed (for keys a trace does not use).
    mutating func skipValue(depth: Int) throws(TraceReadError) {
        switch try peekValue() {
        case UInt8(ascii: "{"):
            try readObject(depth: depth, keys: []) { (r: inout TraceJSONReader, _: Int?) throws(TraceReadError) in
                try r.skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            try readArray(depth: depth) { (r: inout TraceJSONReader, _: Int) throws(TraceReadError) in
                try r.skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "\""):
            var ignored: [UInt8] = []
            try readString(into: &ignored, keep: false)
        case UInt8(ascii: "t"): try readLiteral("true")
        case UInt8(ascii: "f"): try readLiteral("false")
        case UInt8(ascii: "n"): try readLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try readNumber()
        default:
            throw source.error("unexpected \(try describeCurrent()); expected a JSON value")
        }
    }

    /// Reads `true`, `false` or `null`.
    mutating func readLiteral(_ word: StaticString) throws(TraceReadError) {
        let start = source.mark
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for expected in bytes {
            guard try source.peek() == expected else { throw source.error("invalid literal; expected '\(word)'", at: start) }
            source.advance()
        }
    }

    /// Reads a number per the RFC 8259 grammar: its value when it is an integer that fits `Int`
    /// (nil otherwise), and its text for messages.
    mutating func readNumber() throws(TraceReadError) -> (value: Int?, text: String) {
        _ = try skipWhitespace()
        var text = numberText
        numberText = []
        text.removeAll(keepingCapacity: true)
        defer { numberText = text }
        var value = 0
        var fits = true
        let negative = try source.peek() == UInt8(ascii: "-")
        if negative { text.append(UInt8(ascii: "-")); source.advance() }
        guard let first = try source.peek() else { throw source.error("unexpected end of input in number") }
        guard isDigit(first) else { throw source.error("expected a digit in number") }
        let start = source.mark
        while let b = try source.peek(), isDigit(b) {
            if text.count == (negative ? 2 : 1), text.last == UInt8(ascii: "0") {
                throw source.error("leading zeros are not allowed in numbers", at: start)
            }
            text.append(b)
            source.advance()
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(Int(b - 0x30)) : times10.addingReportingOverflow(Int(b - 0x30))
            if o1 || o2 { fits = false }
            value = next
        }
        if try source.peek() == UInt8(ascii: ".") {
            fits = false
            text.append(UInt8(ascii: "."))
            source.advance()
            try readDigits(into: &text, "expected a digit after '.' in number")
        }
        if let e = try source.peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            fits = false
            text.append(e)
            source.advance()
            if let sign = try source.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                text.append(sign)
                source.advance()
            }
            try readDigits(into: &text, "expected a digit in exponent")
        }
        return (fits ? value : nil, String(decoding: text, as: UTF8.self))
    }

    /// Reads one or more digits.
    private mutating func readDigits(into text: inout [UInt8], _ message: String) throws(TraceReadError) {
        guard let b = try source.peek(), isDigit(b) else { throw source.error(message) }
        while let b = try source.peek(), isDigit(b) {
            text.append(b)
            source.advance()
        }
    }

    /// Reads an integer that must fit `Int` (no fraction or exponent).
    mutating func readInt(_ what: @autoclosure () -> String) throws(TraceReadError) -> Int {
        _ = try skipWhitespace()
        let start = source.mark
        let number = try readNumber()
        guard let value = number.value else {
            throw source.error("\(what()) must be an integer, found \(number.text)", at: start)
        }
        return value
    }

    /// Reads a string into a `String`.
    mutating func readStringValue() throws(TraceReadError) -> String {
        var bytes = scratch
        scratch = []
        bytes.removeAll(keepingCapacity: true)
        try readString(into: &bytes, keep: true)
        scratch = bytes
        return String(decoding: bytes, as: UTF8.self)
    }

    @inline(__always)
    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
