/// A byte-level JSON reader over a buffer: the one place that knows the RFC 8259 grammar.
///
/// `JSONValue(parsing:)` uses it to build trees; streaming readers (editing traces) use its
/// pieces directly to skip building a tree. Positions are byte offsets into `bytes`.
package struct JSONScanner {
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline package var index: Int = 0
    @usableFromInline package let maxDepth: Int

    @inlinable package init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 512) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        // A UTF-8 byte order mark is allowed (RFC 8259 §8.1 lets parsers ignore it).
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    @usableFromInline package var isAtEnd: Bool { index >= bytes.count }

    @inlinable package func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(message: message, offset: offset ?? index, in: bytes)
    }

    @inlinable package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The next non-whitespace byte, without consuming it.
    @inlinable package mutating func peekByte() throws(JSONParseError) -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input") }
        return bytes[index]
    }

    /// Consumes `byte` (after whitespace) or fails with "`expected` but found ...".
    @inlinable package mutating func expect(_ byte: UInt8, _ expected: StaticString) throws(JSONParseError) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else {
            throw error("\(expected) but found \(describeCurrent())")
        }
        index += 1
    }

    /// Describes the byte at the current position for error messages.
    @inlinable package func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let b = bytes[index]
        if b >= 0x21, b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    // MARK: Containers, driven by callbacks so that tree and streaming readers share them.

    /// Reads `[ ... ]`, calling `element` with the scanner positioned at each element.
    @inlinable package mutating func readArray(
        depth: Int, _ element: (inout JSONScanner, Int) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        try expect(UInt8(ascii: "["), "expected '['")
        guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth) levels", at: index - 1) }
        if try peekByte() == UInt8(ascii: "]") {
            index += 1
            return
        }
        var n = 0
        while true {
            skipWhitespace()
            try element(&self, n)
            n += 1
            let b = try peekByte()
            index += 1
            if b == UInt8(ascii: ",") { continue }
            if b == UInt8(ascii: "]") { return }
            index -= 1
            throw error("expected ',' or ']' in array but found \(describeCurrent())")
        }
    }

    /// Reads `{ ... }`, calling `member` with each key and the scanner positioned at its value.
    ///
    /// A key that appears twice in one object is an error at the second occurrence (RFC 8259
    /// leaves duplicates to the reader; two readers picking different values is how one file
    /// becomes two records, so every object read here refuses them).
    @inlinable package mutating func readObject(
        depth: Int, _ member: (inout JSONScanner, String) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        try expect(UInt8(ascii: "{"), "expected '{'")
        guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth) levels", at: index - 1) }
        if try peekByte() == UInt8(ascii: "}") {
            index += 1
            return
        }
        var keys = ObjectKeys()
        while true {
            guard try peekByte() == UInt8(ascii: "\"") else {
                throw error("expected a string key in object but found \(describeCurrent())")
            }
            let keyOffset = index
            let key = try readString()
            guard keys.insert(key) else {
                throw error("duplicate key \(Self.quoted(key)) in object", at: keyOffset)
            }
            try expect(UInt8(ascii: ":"), "expected ':' after object key")
            skipWhitespace()
            try member(&self, key)
            let b = try peekByte()
            index += 1
            if b == UInt8(ascii: ",") { continue }
            if b == UInt8(ascii: "}") { return }
            index -= 1
            throw error("expected ',' or '}' in object but found \(describeCurrent())")
        }
    }

    /// The keys seen so far in one object: a short array scanned linearly (objects are small),
    /// switching to a set for large objects so a hostile one cannot make reading quadratic.
    struct ObjectKeys {
        private var few: [String] = []
        private var many: Set<String>? = nil

        /// Adds `key`; false when it was already there.
        mutating func insert(_ key: String) -> Bool {
            if many != nil { return many!.insert(key).inserted }
            if few.contains(key) { return false }
            few.append(key)
            if few.count > 16 {
                many = Set(few)
                few = []
            }
            return true
        }
    }

    /// `key` in double quotes for messages, shortened and with control characters escaped.
    static func quoted(_ key: String) -> String {
        var shown = ""
        for (n, scalar) in key.unicodeScalars.enumerated() {
            if n == 64 {
                shown += "..."
                break
            }
            shown += scalar.value < 0x20 || scalar == "\"" || scalar == "\\" ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return "\"" + shown + "\""
    }

    // MARK: Values

    /// Reads any value into a tree.
    @inlinable package mutating func readValue(depth: Int) throws(JSONParseError) -> JSONValue {
        switch try peekByte() {
        case UInt8(ascii: "{"):
            var members: [JSONObject.Member] = []
            try readObject(depth: depth) { (s: inout JSONScanner, key: String) throws(JSONParseError) in
                members.append(JSONObject.Member(key: key, value: try s.readValue(depth: depth + 1)))
            }
            return .object(JSONObject(members: members))
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try readArray(depth: depth) { (s: inout JSONScanner, _: Int) throws(JSONParseError) in
                elements.append(try s.readValue(depth: depth + 1))
            }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try readNumber())
        default:
            throw error("unexpected \(describeCurrent()); expected a JSON value")
        }
    }

    /// Skips any value without building it (used by streaming readers for unknown keys).
    @inlinable package mutating func skipValue(depth: Int) throws(JSONParseError) {
        switch try peekByte() {
        case UInt8(ascii: "{"):
            try readObject(depth: depth) { (s: inout JSONScanner, _: String) throws(JSONParseError) in
                try s.skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            try readArray(depth: depth) { (s: inout JSONScanner, _: Int) throws(JSONParseError) in
                try s.skipValue(depth: depth + 1)
            }
        default:
            _ = try readValue(depth: depth)
        }
    }

    @inlinable package mutating func readLiteral(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let count = word.utf8CodeUnitCount
        let wordBytes = word.utf8Start
        for k in 0..<count {
            guard index < bytes.count, bytes[index] == wordBytes[k] else {
                throw error("invalid literal; expected '\(word)'", at: start)
            }
            index += 1
        }
    }

    /// Reads a number per the RFC 8259 grammar, keeping its text.
    @inlinable package mutating func readNumber() throws(JSONParseError) -> JSONNumber {
        skipWhitespace()
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("unexpected end of input in number") }
        let first = bytes[index]
        if first == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("leading zeros are not allowed in numbers", at: start) }
        } else if first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        } else {
            throw error("expected a digit in number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.' in number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return JSONNumber(validatedText: text)
    }

    /// Reads an integer that must fit `Int` (no fraction or exponent); for streaming readers.
    @inlinable package mutating func readInt(_ what: @autoclosure () -> String) throws(JSONParseError) -> Int {
        skipWhitespace()
        let start = index
        let number = try readNumber()
        guard let v = number.int64Value, let i = Int(exactly: v) else {
            throw error("\(what()) must be an integer, found \(number.text)", at: start)
        }
        return i
    }

    @inline(__always)
    @inlinable package func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
