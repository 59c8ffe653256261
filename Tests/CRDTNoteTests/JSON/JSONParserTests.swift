import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

private func parse(_ text: String, maxDepth: Int = 512) throws(JSONParseError) -> JSONValue {
    try JSONValue(parsing: Array(text.utf8), maxDepth: maxDepth)
}

private func parseError(_ bytes: [UInt8], maxDepth: Int = 512) -> JSONParseError? {
    do {
        _ = try JSONValue(parsing: bytes, maxDepth: maxDepth)
        return nil
    } catch {
        return error
    }
}

private func parseError(_ text: String) -> JSONParseError? { parseError(Array(text.utf8)) }

@Suite("JSON parser")
struct JSONParserTests {
    @Test func scalarsAndContainers() throws {
        let v = try parse(#" {"a": [1, -2.5e3, true, false, null, "x"], "b": {}, "c": []} "#)
        #expect(v["a"]?[0]?.numberValue?.int64Value == 1)
        #expect(v["a"]?[1]?.numberValue?.doubleValue == -2500)
        #expect(v["a"]?[2] == .bool(true))
        #expect(v["a"]?[4] == .null)
        #expect(v["a"]?[5] == .string("x"))
        #expect(v["b"] == .object(JSONObject()))
        #expect(v["c"] == .array([]))
        #expect(try parse("\"top\"") == .string("top"))
        #expect(try parse("7") == .number(JSONNumber(7)))
    }

    @Test func keyOrderKept() throws {
        let v = try parse(#"{"z": 1, "a": 2, "m": 3}"#)
        let object = try #require(v.objectValue)
        #expect(object.keys == ["z", "a", "m"])
        #expect(v.serializedString() == #"{"z":1,"a":2,"m":3}"#)
        // An object built in code may still hold a duplicate; lookup gives the last one.
        var built = JSONObject()
        built.append(key: "z", value: .number(JSONNumber(1)))
        built.append(key: "z", value: .number(JSONNumber(3)))
        #expect(built["z"] == .number(JSONNumber(3)))
    }

    @Test func duplicateKeysRefusedWithKeyAndPosition() throws {
        let error = try #require(parseError("{\"z\": 1, \"a\": 2,\n  \"z\": 3}"))
        #expect(error.message == #"duplicate key "z" in object"#)
        #expect(error.offset == 19)
        #expect(error.line == 2 && error.column == 3)
        // In every object, at any depth, however written (escapes spell the same key).
        #expect(parseError(#"[{"a": {"b": 1, "b": 2}}]"#)?.message == #"duplicate key "b" in object"#)
        #expect(parseError(#"{"a\u0062": 1, "ab": 2}"#)?.message == #"duplicate key "ab" in object"#)
        #expect(parseError(#"{"": 1, "": 2}"#)?.message == #"duplicate key "" in object"#)
        // Large objects (past the linear-scan size) too, and equal keys in sibling objects are fine.
        let many = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        #expect(parseError("{\(many), \"k7\": 0}")?.message == #"duplicate key "k7" in object"#)
        #expect(parseError("{\(many)}") == nil)
        #expect(parseError(#"[{"a": 1}, {"a": 2}, {"b": {"a": 3}}]"#) == nil)
        // Control characters in the key are escaped in the message.
        #expect(parseError(#"{"\n": 1, "\n": 2}"#)?.message == #"duplicate key "\n" in object"#)
    }

    @Test func escapesAndUnicode() throws {
        let v = try parse(#""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00""#)
        #expect(v == .string("a\"b\\c/d\u{8}\u{c}\n\r\tAé€😀"))
        #expect(try parse("\"héllo 😀\"") == .string("héllo 😀"))
        // The serializer escapes only what RFC 8259 requires.
        #expect(JSONValue.string("q\"\\\n\u{1}é").serializedString() == #""q\"\\\n\u0001é""#)
    }

    @Test func loneSurrogatesRejected() {
        #expect(parseError(#""\ud83d""#)?.message.contains("lone high surrogate") == true)
        #expect(parseError(#""\ude00x""#)?.message.contains("lone low surrogate") == true)
        #expect(parseError(#""\ud83d\u0041""#) != nil)
        #expect(parseError(#""\u12G4""#) != nil)
        #expect(parseError(#""\x""#)?.message.contains("invalid escape") == true)
    }

    @Test func invalidUTF8Rejected() throws {
        let cases: [[UInt8]] = [
            [0x22, 0xFF, 0x22],                  // never valid
            [0x22, 0xC0, 0xAF, 0x22],            // overlong '/'
            [0x22, 0xED, 0xA0, 0x80, 0x22],      // encoded surrogate
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], // above U+10FFFF
            [0x22, 0xE2, 0x82, 0x22],            // truncated sequence
            [0x22, 0x5C, 0x6E, 0x80, 0x22],      // after an escape (slow path)
            [0x22, 0xFF, 0x5C, 0x6E, 0x22],      // before the first escape
            [0x22, 0x41, 0xC3, 0x5C, 0x6E, 0x22], // truncated sequence cut by an escape
            [0x22, 0xC3, 0xA9, 0x80, 0x5C, 0x75, 0x30, 0x30, 0x34, 0x31, 0x22], // stray byte, then \u0041
        ]
        for bytes in cases {
            let error = parseError(bytes)
            #expect(error?.message == "invalid UTF-8 in string", "\(bytes)")
        }
        // The position is the bad byte's, before or after the escape; keys are checked too.
        #expect(parseError([0x22, 0x61, 0xFF, 0x5C, 0x6E, 0x22])?.offset == 2)
        #expect(parseError([0x7B, 0x22, 0xFE, 0x5C, 0x74, 0x22, 0x3A, 0x31, 0x7D])?.column == 3)
        #expect(parseError([0x22, 0x5C, 0x6E, 0x61, 0xFF, 0x22])?.offset == 4)
        // Valid non-ASCII text on both sides of an escape is kept exactly.
        #expect(try JSONValue(parsing: Array("\"é\\n€\"".utf8)) == .string("é\n€"))
        #expect(parseError([0x22, 0xE2, 0x82, 0xAC, 0x22]) == nil)
    }

    @Test func rfc8259Violations() {
        let bad = [
            "", " ", "[1,]", "{\"a\":1,}", "[1 2]", "{'a':1}", "{a:1}", "01", "-", "1.", ".5", "1e", "+1",
            "[", "{\"a\"}", "tru", "nul", "NaN", "Infinity", "\"a\tb\"", "\"abc", "1 2", "[1]]", "{\"a\":1 \"b\":2}",
        ]
        for text in bad {
            #expect(parseError(text) != nil, "\(text) should fail")
        }
    }

    @Test func numbersKeepTheirText() throws {
        let v = try parse("[-0, 1e400, 9223372036854775807, -9223372036854775808, 9223372036854775808, 1.0, 2E-3]")
        let n = try #require(v.arrayValue).compactMap(\.numberValue)
        #expect(n.map(\.text) == ["-0", "1e400", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1.0", "2E-3"])
        #expect(n[0].int64Value == 0)
        #expect(n[1].int64Value == nil)
        #expect(n[1].doubleValue == .infinity)
        #expect(n[2].int64Value == .max)
        #expect(n[3].int64Value == .min)
        #expect(n[4].int64Value == nil)
        #expect(n[5].int64Value == nil)
        #expect(n[5].doubleValue == 1)
        #expect(n[6].doubleValue == 0.002)
        #expect(v.serializedString() == "[-0,1e400,9223372036854775807,-9223372036854775808,9223372036854775808,1.0,2E-3]")
        #expect(JSONNumber(Double.infinity).text == "1e999")
        #expect(JSONNumber(0.1).doubleValue == 0.1)
    }

    @Test func depthLimit() {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(parseError(ok) == nil)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = parseError(deep)
        #expect(error?.message.contains("nesting deeper than 512") == true)
        #expect(error?.offset == 512)
        let objects = String(repeating: "{\"a\":", count: 20) + "1" + String(repeating: "}", count: 20)
        #expect(parseError(Array(objects.utf8), maxDepth: 10) != nil)
        #expect(parseError(Array(objects.utf8), maxDepth: 20) == nil)
    }

    @Test func errorLineAndColumn() {
        let error = parseError("{\n  \"a\": 1,\n  \"b\": tru\n}")
        #expect(error?.line == 3)
        #expect(error?.column == 8)
        #expect(error?.offset == 19)
        #expect(error?.description.hasPrefix("JSON error at 3:8 (byte 19)") == true)
        let trailing = parseError("[1]\n x")
        #expect(trailing?.line == 2)
        #expect(trailing?.column == 2)
        let comma = parseError("[1 2]")
        #expect(comma?.message == "expected ',' or ']' in array but found '2'")
        #expect(comma?.offset == 3)
    }

    @Test func byteOrderMarkIgnored() throws {
        #expect(try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number(JSONNumber(1))]))
    }

    @Test func prettyOutputParsesBack() throws {
        let v = try parse(#"{"a":[1,{"b":null}],"c":"d","e":{},"f":[]}"#)
        let pretty = v.serializedString(pretty: true)
        #expect(pretty == "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": \"d\",\n  \"e\": {},\n  \"f\": []\n}")
        #expect(try parse(pretty) == v)
    }

    @Test func objectSubscriptSetter() {
        var o: JSONObject = ["a": .null, "b": .bool(true)]
        o["a"] = .string("x")
        o["c"] = .number(JSONNumber(1))
        o["b"] = nil
        #expect(o.keys == ["a", "c"])
        #expect(o["a"] == .string("x"))
    }
}
