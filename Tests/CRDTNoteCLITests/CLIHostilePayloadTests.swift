import Foundation
import Testing
import CRDTNoteTestSupport

/// Issue 29's crafted payloads through the CLI, built here from Docs/FORMAT.md: a format 2 payload
/// of 88 bytes declaring 2^21 runs (it took 207 MB to read, and aborted under a 200 MB address-space
/// limit) and a state out of the merge rule's order. Each ends in a typed refusal, also with the
/// address space limited to 200 MB (`ulimit -v 200000`).
@Suite struct CLIHostilePayloadTests {
    static func varuint(_ value: Int) -> [UInt8] {
        var v = value
        var out: [UInt8] = []
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        return out + [UInt8(v)]
    }

    /// A snapshot payload: header (§3) and `body`.
    static func payload(_ body: [UInt8], minimumReader: UInt8) -> [UInt8] {
        var out: [UInt8] = Array("CRNT".utf8) + [minimumReader, 0, minimumReader, 0, 1, 0]
        let crc = PayloadBomb.crc32c(body)
        for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: body.count >> (8 * k))) }
        for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k)))) }
        return out + body
    }

    /// 2^21 one-id tombstones of one replica in format 2, every column rANS-coded with one symbol.
    static let bomb: [UInt8] = {
        let runs = 1 << 21
        func constant(_ symbol: UInt8) -> [UInt8] { [1] + varuint(runs) + [0, symbol, 0x80, 0x20, 4, 0, 0, 0x80, 0] }
        var body: [UInt8] = [1, 0x51, 0x51, 0, 0, 0, 0, 0, 0] + varuint(runs) + [0, 0, 0] + varuint(runs)
        body += constant(0x01 | 1 << 1 | 2 << 3) + [0, 0] + constant(0) + constant(0) + [0, 0, 0, 0, 0, 0]
        return payload(body, minimumReader: 2)
    }()

    /// "b" (replica 9) listed before "a" (replica 7), neither with origins (format 1).
    static let outOfOrder: [UInt8] = {
        var body: [UInt8] = [2, 9, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]
        body += [2] + Array("ba".utf8) + [2]
        body += [2, 0x04, 0x06] + [1, 1] + [2, 0, 0] + [2, 0, 0] + [0] + [0]
        return payload(body, minimumReader: 1)
    }()

    static func record(_ payload: [UInt8]) throws -> String {
        let record: [String: Any] = [
            "recordName": "hostile", "recordType": "Note",
            "fields": [
                "version": ["value": 2, "type": "INT64"],
                "payload": ["value": Data(payload).base64EncodedString(), "type": "BYTES"],
            ],
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)
    }

    /// Runs `crdtnote` with `arguments` in `folder` with its address space limited to 200 MB.
    static func runLimited(_ arguments: [String], in folder: TemporaryDirectory) throws -> CLIResult {
        let executable = try CLIHarness.located.get()
        return try CLIHarness.runProcess(URL(fileURLWithPath: "/bin/sh"),
                                         ["-c", "ulimit -v 200000 && exec \"$0\" \"$@\"", executable.path] + arguments, in: folder.url)
    }

    @Test func aBombOfTwoToTheTwentyOneRunsIsRefusedUnderAMemoryLimit() throws {
        #expect(Self.bomb.count < 100)
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try CLIFixtures.write(try Self.record(Self.bomb), to: "bomb.json", in: folder)
        for k in 1...16 { try CLIFixtures.write(try Self.record(Self.bomb), to: "copy-\(k).json", in: folder) }
        for (arguments, status) in [(["text", "bomb.json"], 65), (["verify", "bomb.json"], 1),
                                    (["merge"] + (1...16).map { "copy-\($0).json" } + ["-o", "merged.json"], 65)] as [([String], Int32)] {
            for result in [try CLIHarness.run(arguments, in: folder.url), try Self.runLimited(arguments, in: folder)] {
                #expect(result.status == status, "\(arguments[0]): \(result.stderr)")
                #expect(result.stderr.contains("lengthTooLarge (byte 34)") && result.stderr.contains("more than 4 runs per byte"),
                        "\(arguments[0]): \(result.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("merged.json")))
    }

    @Test func aStateOutOfTheRulesOrderIsRefused() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try CLIFixtures.write(try Self.record(Self.outOfOrder), to: "ba.json", in: folder)
        let verify = try Self.runLimited(["verify", "ba.json"], in: folder)
        #expect(verify.status == 1)
        #expect(verify.stderr.contains("run 1 is not where the merge rule places it"), "\(verify.stderr)")
        let text = try CLIHarness.run(["text", "ba.json"], in: folder.url)
        #expect(text.status == 65, "\(text.stderr)")
    }
}
