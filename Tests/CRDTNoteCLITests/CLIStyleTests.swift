import Foundation
import Testing
@testable import CRDTNote
@testable import CRDTNoteCLI

/// End-to-end checks of `style`, `text --spans` and `text --markdown` beyond Docs/CLI.md's examples.
@Suite struct CLIStyleTests {
    /// A folder holding `n.json`: "one two\nthree\n" by replica 7.
    static func noteFolder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let created = try CLIHarness.run(["new", "--replica", "7", "--name", "n", "-o", "n.json"],
                                         stdin: Data("one two\nthree\n".utf8), in: folder.url)
        #expect(created.status == 0, "\(created.stderr)")
        return folder
    }

    @Test(arguments: [
        (["--utf16-range", "0:1", "--replica", "1"], "give exactly one of"),
        (["--add", "bold", "--replica", "1"], "missing required option '--utf16-range'"),
        (["--utf16-range", "0:1", "--add", "bold", "--remove", "bold", "--replica", "1"], "give exactly one of"),
        (["--utf16-range", "0:1", "--add", "bold"], "missing required option '--replica'"),
        (["--utf16-range", "0:1", "--add", "bold=yes", "--replica", "1"], "takes no value"),
        (["--utf16-range", "0:1", "--add", "highlight", "--replica", "1"], "needs a value"),
        (["--utf16-range", "0:1", "--remove", "link=https://x", "--replica", "1"], "without a value"),
        (["--utf16-range", "0:1", "--paragraph", "heading=7", "--replica", "1"], "option '--paragraph' must be"),
        (["--utf16-range", "0:1", "--paragraph", "align=left", "--replica", "1"], "option '--paragraph' must be"),
        (["--utf16-range", "2:1", "--add", "bold", "--replica", "1"], "0 <= A <= B"),
    ] as [([String], String)])
    func badOptionsExit64AndWriteNothing(_ arguments: [String], _ message: String) throws {
        let folder = try Self.noteFolder()
        defer { folder.remove() }
        let before = try Data(contentsOf: folder.url.appendingPathComponent("n.json"))
        let result = try CLIHarness.run(["style", "n.json"] + arguments, in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("n.json")) == before)
    }

    @Test func formattedRecordsMergeTheirFormattingAndEditsKeepIt() throws {
        let folder = try Self.noteFolder()
        defer { folder.remove() }
        func run(_ arguments: [String]) throws -> CLIResult {
            let result = try CLIHarness.run(arguments, in: folder.url)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result
        }
        _ = try run(["style", "n.json", "--utf16-range", "0:3", "--add", "bold", "--replica", "1", "-o", "a.json"])
        _ = try run(["style", "n.json", "--utf16-range", "8:8", "--paragraph", "list=bullet", "--replica", "2", "-o", "b.json"])
        _ = try run(["style", "b.json", "--utf16-range", "4:7", "--add", "strikethrough", "--replica", "2"])
        let merged = try run(["merge", "a.json", "b.json", "-o", "m.json"])
        #expect(merged.status == 0)
        #expect(try run(["text", "m.json", "--markdown"]).stdout == "**one** ~~two~~\n\n- three\n")
        // A plain edit keeps the formatting; text typed at the end of the bold joins it.
        _ = try run(["edit", "m.json", "--replica", "3", "--utf16-range", "3:3", "--text", "-"])
        #expect(try run(["text", "m.json"]).stdout == "one two\nthree\n")
        let typed = try CLIHarness.run(["edit", "m.json", "--replica", "3", "--utf16-range", "3:3"], stdin: Data("s".utf8), in: folder.url)
        #expect(typed.status == 0)
        #expect(try run(["text", "m.json", "--markdown"]).stdout == "**ones** ~~two~~\n\n- three\n")
        #expect(try run(["text", "m.json", "--spans"]).stdout.contains("{\"text\": \"ones\", \"attributes\": {\"bold\": true}}"))
    }

    @Test func aCorruptFormattingFieldFailsSpansButNotPlainText() throws {
        let folder = try Self.noteFolder()
        defer { folder.remove() }
        #expect(try CLIHarness.run(["style", "n.json", "--utf16-range", "0:3", "--add", "italic", "--replica", "1"], in: folder.url).status == 0)
        #expect(try CLIHarness.run(["verify", "n.json"], in: folder.url).stdout.contains("formatted"))
        let url = folder.url.appendingPathComponent("n.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var fields = try #require(object["fields"] as? [String: Any])
        var formatting = try #require(fields["formatting"] as? [String: Any])
        let base64 = try #require(formatting["value"] as? String)
        var bytes = [UInt8](try #require(Data(base64Encoded: base64)))
        bytes[bytes.count - 2] ^= 0xFF
        formatting["value"] = Data(bytes).base64EncodedString()
        fields["formatting"] = formatting
        object["fields"] = fields
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        let spans = try CLIHarness.run(["text", "n.json", "--spans"], in: folder.url)
        #expect(spans.status == 65)
        #expect(spans.stderr.contains("formatting"), "\(spans.stderr)")
        let verified = try CLIHarness.run(["verify", "n.json"], in: folder.url)
        #expect(verified.status == 1)
        #expect(verified.stderr.contains("fields.formatting.value: corrupt payload"), "\(verified.stderr)")
        let plain = try CLIHarness.run(["text", "n.json"], in: folder.url)
        #expect(plain.status == 0)
        #expect(plain.stdout == "one two\nthree\n")
    }

    @Test func markdownKeepsEmptyLines() throws {
        var note = try NoteText("a\n\nb\n\n\nc", replica: .test(1))
        try note.setParagraphAttribute(.codeBlock(true), utf16Range: 6..<6)   // the second empty line, in a code block
        #expect(FormattedOutput.markdown(try note.formattedSpans()) == "a\n\n&nbsp;\n\nb\n\n&nbsp;\n\n```\n\n```\n\nc\n")
    }

    @Test func markdownEscapesSyntaxAndFencesCode() throws {
        let spans = [
            FormattedSpan(text: "1. a*b_c [x] <y>\n", utf16Range: 0..<17, marks: [], paragraph: ParagraphAttributes()),
            FormattedSpan(text: "let `x`", utf16Range: 17..<24, marks: [.code], paragraph: ParagraphAttributes()),
        ]
        #expect(FormattedOutput.markdown(spans) == "1\\. a\\*b\\_c \\[x\\] \\<y\\>\n\n`` let `x` ``\n")
        var block = ParagraphAttributes()
        block.codeBlock = true
        let code = [FormattedSpan(text: "a *b*\nc\n", utf16Range: 0..<8, marks: [.bold], paragraph: block)]
        #expect(FormattedOutput.markdown(code) == "```\na *b*\nc\n```\n")
    }
}
