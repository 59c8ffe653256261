/// How serialized JSON is laid out.
package enum JSONLayout: Sendable {
    /// No white space: `{"a":[1,2]}`.
    case compact
    /// One line with a space after each `,` and `:`: `{"a": [1, 2]}`.
    case singleLine
    /// Indented by two spaces, one member or element a line.
    case pretty
}

extension JSONValue {
    /// Writes the value as UTF-8 JSON. Deterministic: object members in stored order,
    /// numbers by their text, strings escaped per RFC 8259 (only `"`, `\` and control
    /// characters; other characters are written as UTF-8). `pretty` indents by two spaces.
    package func serialized(pretty: Bool = false) -> [UInt8] {
        serialized(layout: pretty ? .pretty : .compact)
    }

    /// Writes the value as UTF-8 JSON laid out as `layout`.
    package func serialized(layout: JSONLayout) -> [UInt8] {
        var writer = JSONWriter(layout: layout)
        writer.write(self, indent: 0)
        return writer.out
    }

    /// The serialized form as a `String`.
    package func serializedString(pretty: Bool = false) -> String {
        serializedString(layout: pretty ? .pretty : .compact)
    }

    /// The serialized form as a `String`, laid out as `layout`.
    package func serializedString(layout: JSONLayout) -> String {
        String(decoding: serialized(layout: layout), as: UTF8.self)
    }
}

/// Appends JSON text to a byte buffer.
struct JSONWriter {
    var out: [UInt8] = []
    let layout: JSONLayout

    init(layout: JSONLayout) {
        self.layout = layout
        out.reserveCapacity(256)
    }

    mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.text.utf8)
        case .string(let s): writeString(s)
        case .array(let elements):
            guard !elements.isEmpty else { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (k, element) in elements.enumerated() {
                if k > 0 { separator() }
                newline(indent + 1)
                write(element, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else { out.append(contentsOf: "{}".utf8); return }
            out.append(UInt8(ascii: "{"))
            for (k, member) in object.members.enumerated() {
                if k > 0 { separator() }
                newline(indent + 1)
                writeString(member.key)
                out.append(UInt8(ascii: ":"))
                if layout != .compact { out.append(UInt8(ascii: " ")) }
                write(member.value, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The `,` between members or elements.
    private mutating func separator() {
        out.append(UInt8(ascii: ","))
        if layout == .singleLine { out.append(UInt8(ascii: " ")) }
    }

    private mutating func newline(_ indent: Int) {
        guard layout == .pretty else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    mutating func writeString(_ s: String) {
        out.append(UInt8(ascii: "\""))
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
        if done == nil {
            Array(s.utf8).withUnsafeBufferPointer { appendEscaped($0) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Copies runs that need no escaping in one go.
    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for i in 0..<bytes.count {
            let b = bytes[i]
            guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
            runStart = i + 1
            out.append(UInt8(ascii: "\\"))
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(b)
            case 0x08: out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "f"))
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "t"))
            default:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "u00".utf8)
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0xF)])
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
    }
}
