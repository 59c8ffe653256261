import CRDTNoteDurableFiles
import Foundation
import Testing

/// `crdtnote library`: each action run as a user would, checking output, exit status and
/// what a second process then reads.
@Suite struct CLILibraryTests {
    func run(_ arguments: [String], stdin: String? = nil) throws -> CLIResult {
        try CLIHarness.run(arguments, stdin: stdin.map { Data($0.utf8) })
    }

    @Test func initAppendEditListTextDeleteVerify() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let dir = scratch.path("notes")
        #expect(try run(["library", "init", dir]).status == 0)
        #expect(try run(["library", "append", dir, "groceries", "Groceries\nmilk"]).status == 0)
        #expect(try run(["library", "append", dir, "groceries", ", eggs"]).status == 0)
        #expect(try run(["library", "edit", dir, "groceries", "--utf16-range", "10:14"], stdin: "oat milk").status == 0)
        #expect(try run(["library", "edit", dir, "todo"], stdin: "Call Anna\n").status == 0)
        #expect(try run(["library", "text", dir, "groceries"]).stdout == "Groceries\noat milk, eggs")
        #expect(try run(["library", "text", dir, "todo"]).stdout == "Call Anna\n")

        let list = try run(["library", "list", dir, "--json"])
        #expect(list.status == 0)
        let entries = try #require(try JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["name"] as? String }) == ["groceries", "todo"])
        let groceries = try #require(entries.first { $0["name"] as? String == "groceries" })
        #expect(groceries["title"] as? String == "Groceries")
        #expect(groceries["unsaved"] as? Bool == true)
        #expect((groceries["created"] as? String)?.hasSuffix("Z") == true)
        #expect((groceries["modified"] as? String)?.contains("T") == true)

        #expect(try run(["library", "delete", dir, "todo"]).status == 0)
        let verify = try run(["library", "verify", dir])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout == "ok: 1 notes\n")
        #expect(try run(["library", "text", dir, "todo"]).status == 1)
    }

    @Test func exportAndImportRoundTripThroughRecords() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let first = scratch.path("first"), second = scratch.path("second"), out = scratch.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        #expect(try run(["library", "init", first]).status == 0)
        #expect(try run(["library", "init", second]).status == 0)
        #expect(try run(["library", "append", first, "a", "from the first library"]).status == 0)
        #expect(try run(["library", "append", second, "a", "from the second library"]).status == 0)
        let export = try run(["library", "export", first, out])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try run(["text", out + "/a.json"]).stdout == "from the first library")
        let imported = try run(["library", "import", second, out + "/a.json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Merged, not overwritten: both texts are there.
        let text = try run(["library", "text", second, "a"]).stdout
        #expect(text.contains("from the first library") && text.contains("from the second library"))
        // Format 1 unless asked.
        func format(_ path: String) throws -> Int? {
            let shown = try JSONSerialization.jsonObject(with: Data(try run(["show", path, "--json"]).stdout.utf8)) as? [String: Any]
            return (shown?["payloads"] as? [[String: Any]])?.first?["minimumReaderVersion"] as? Int
        }
        #expect(try format(out + "/a.json") == 1)
        let out2 = scratch.path("out2")
        try FileManager.default.createDirectory(atPath: out2, withIntermediateDirectories: true)
        #expect(try run(["library", "export", first, out2, "--format", "2"]).status == 0)
        #expect(try format(out2 + "/a.json") == 2)
        #expect(try run(["text", out2 + "/a.json"]).stdout == "from the first library")
    }

    @Test func exactRangeEditOfARecordFile() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let record = scratch.path("note.json")
        #expect(try run(["new", "--replica", "1", "-o", record], stdin: "a😀b").status == 0)
        // UTF-16 offsets: the emoji is two units, so 1:3 is exactly it.
        let edit = try run(["edit", record, "--replica", "2", "--utf16-range", "1:3"], stdin: "-")
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try run(["text", record]).stdout == "a-b")
        let outside = try run(["edit", record, "--replica", "2", "--utf16-range", "2:9"], stdin: "x")
        #expect(outside.status == 65)
        #expect(outside.stderr.contains("nothing written"))
        #expect(try run(["text", record]).stdout == "a-b")
    }

    @Test func refusalsHaveTheirExitStatus() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let dir = scratch.path("notes")
        #expect(try run(["library", "list", scratch.path("missing")]).status == 66)
        #expect(try run(["library", "list", scratch.url.path]).status == 66)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
        #expect(try run(["library", "init", dir]).status == 0)
        #expect(try run(["library", "init", dir]).status == 73)
        #expect(try run(["library", "append", dir, "_bad", "x"]).status == 64)
        #expect(try run(["library", "list", dir, "--text", "x"]).status == 64)
        #expect(try run(["library", "frobnicate", dir]).status == 64)
        // Another process holds the library: exit 75 after the wait, nothing written.
        let lock = try PosixFileSystem().lockFile(at: dir + "/lock", waiting: false)
        let busy = try run(["library", "append", dir, "n", "x"])
        lock.unlock()
        #expect(busy.status == 75)
        #expect(busy.stderr.contains("another process"))
        #expect(try run(["library", "list", dir]).stdout.isEmpty)
    }
}
