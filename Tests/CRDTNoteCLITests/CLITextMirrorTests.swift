import Foundation
import Testing
import CRDTNote
import CRDTNoteFiles
import CRDTNoteTestSupport

/// The CLI writes `text` in one type per container: `new` as an ASSET unless told otherwise,
/// `edit` and `merge` in their input's type, whatever the note's size.
@Suite struct CLITextMirrorTests {
    static let small = "0123456789"   // 10 bytes
    static let large = String(repeating: "a line of a long note, 40 bytes long.\n", count: 10_500)   // 399,000 bytes

    /// The record in `name` (its asset files beside it).
    static func record(_ name: String, in folder: TemporaryDirectory) throws -> CloudRecord {
        let bytes = try [UInt8](Data(contentsOf: folder.url.appendingPathComponent(name)))
        return try NoteRecord(CloudRecord.record(fromJSON: bytes), loadingAssetsFrom: AssetLocator(jsonDirectory: folder.url.path)).record
    }

    /// Runs a command that must succeed.
    static func run(_ arguments: [String], stdin: String? = nil, in folder: TemporaryDirectory) throws {
        let result = try CLIHarness.run(arguments, stdin: stdin.map { Data($0.utf8) }, in: folder.url)
        #expect(result.status == 0, "crdtnote \(arguments.joined(separator: " ")): \(result.stderr)")
    }

    static func textType(_ record: CloudRecord) -> String? {
        switch record[field: NoteSchema.Field.text] {
        case .string?: return "STRING"
        case .asset?: return "ASSET"
        case nil: return nil
        default: return "other"
        }
    }

    @Test func newNotesMirrorAsAnAssetUnlessToldOtherwise() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try CLIFixtures.write(Self.small, to: "small.txt", in: folder)
        try CLIFixtures.write(Self.large, to: "large.txt", in: folder)
        var written: [CloudRecord] = []
        for size in ["small", "large"] {
            try Self.run(["new", "--replica", "1", "--name", size, "--text", "\(size).txt", "-o", "\(size).json"], in: folder)
            try Self.run(["new", "--replica", "1", "--name", size, "--text", "\(size).txt", "--text-mirror", "asset", "-o", "\(size)-a.json"], in: folder)
            for file in ["\(size).json", "\(size)-a.json"] {
                let record = try Self.record(file, in: folder)
                #expect(Self.textType(record) == "ASSET", "\(file)")
                #expect(try CLIHarness.text(of: file, in: folder.url) == (size == "small" ? Self.small : Self.large))
                written.append(record)
            }
        }
        #expect(FieldTypeScan.mismatches(in: written) == [])

        try Self.run(["new", "--replica", "1", "--name", "s", "--text", "small.txt", "--text-mirror", "string", "-o", "s.json"], in: folder)
        try Self.run(["new", "--replica", "1", "--name", "l", "--text", "large.txt", "--text-mirror", "string", "-o", "l.json"], in: folder)
        try Self.run(["new", "--replica", "1", "--name", "o", "--text", "small.txt", "--text-mirror", "off", "-o", "o.json"], in: folder)
        #expect(Self.textType(try Self.record("s.json", in: folder)) == "STRING")
        for file in ["l.json", "o.json"] {
            let record = try Self.record(file, in: folder)
            #expect(Self.textType(record) == nil)
            #expect(record[field: NoteSchema.Field.mirroredBytes] == .int64(0))
        }
        #expect(try CLIHarness.text(of: "l.json", in: folder.url) == Self.large)

        let bad = try CLIHarness.run(["new", "--replica", "1", "--text", "small.txt", "--text-mirror", "STRING"], in: folder.url)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("'--text-mirror' must be asset, string or off"))
    }

    /// A container whose `text` is a STRING (the examples) and the classic app's (an ASSET):
    /// edits and merges of small and large notes keep each container's type.
    @Test(arguments: [("legacy-v1.json", "STRING"), ("legacy-classic.json", "ASSET")])
    func editAndMergeKeepTheirInputsTextType(_ legacy: String, _ type: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try CLIFixtures.copyExamples([legacy], into: folder)
        if legacy == "legacy-classic.json" {
            let json = try CloudRecord.record(fromJSON: [UInt8](Data(contentsOf: folder.url.appendingPathComponent(legacy))))
            guard case .asset(let ref)? = json[field: NoteSchema.Field.text], let file = ref.downloadURL else {
                Issue.record("the classic example has no text asset"); return
            }
            try CLIFixtures.copyExamples([file], into: folder)
        }
        var written = [try Self.record(legacy, in: folder)]
        // Upgraded, grown to 400 KB, and shrunk again, on two devices that then conflict.
        try Self.run(["edit", legacy, "--replica", "1", "-o", "a.json"], stdin: "small\n", in: folder)
        try Self.run(["edit", "a.json", "--replica", "1", "-o", "big.json"], stdin: Self.large, in: folder)
        try Self.run(["edit", "big.json", "--replica", "2", "-o", "phone.json"], stdin: "phone\n" + Self.large, in: folder)
        try Self.run(["edit", "big.json", "--replica", "3", "-o", "laptop.json"], stdin: Self.large + "laptop\n", in: folder)
        try Self.run(["merge", "--ancestor", "big.json", "--client", "phone.json", "--server", "laptop.json", "-o", "merged.json"], in: folder)
        try Self.run(["merge", "a.json", "merged.json", "-o", "both.json"], in: folder)
        try Self.run(["edit", "both.json", "--replica", "1", "-o", "small.json"], stdin: Self.small, in: folder)
        try Self.run(["edit", "both.json", "--replica", "1", "--text-mirror", type.lowercased(), "-o", "told.json"], stdin: Self.small, in: folder)
        #expect(try CLIHarness.text(of: "merged.json", in: folder.url) == "phone\n" + Self.large + "laptop\n")
        for file in ["a.json", "big.json", "phone.json", "laptop.json", "merged.json", "both.json", "small.json", "told.json"] {
            let record = try Self.record(file, in: folder)
            written.append(record)
            // A STRING container never gets an ASSET: a note too large for a STRING has no mirror,
            // and records made from it have none either until told the type again.
            let expected = type == "ASSET" || ["a.json", "told.json"].contains(file) ? type : nil
            #expect(Self.textType(record) == expected, "\(file)")
        }
        #expect(FieldTypeScan.mismatches(in: written) == [])
        #expect(FieldTypeScan.types(in: written)["text"] == [type])
    }
}
