import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteTesting
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteToolSupport
import Testing

@testable import CRDTNoteCLI

extension ParsedArguments {
    /// The `--replica` value as a number, or nil when it is rejected.
    var replicaIDValue: UInt64? {
        (try? replicaID("--replica"))??.rawValue
    }
}

@Suite struct MergeHasNoReplicaOptionTests {
    @Test func mergeRejectsReplica() {
        do {
            _ = try Invocation(arguments: ["merge", "a.json", "b.json", "--replica", "1"])
            Issue.record("merge accepted --replica")
        } catch {
            #expect(error.code == .usage)
            #expect(error.message == "unknown option '--replica'")
        }
    }
}

/// In-process checks of parsing and validation, down to the options structs.
@Suite struct ArgumentParserTests {
    func parse(_ arguments: [String]) throws(CLIError) -> Invocation {
        try Invocation(arguments: arguments)
    }

    func usageMessage(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.code == .usage ? error.message : "not a usage error: \(error)"
        }
    }

    @Test func mergeConflictFormAcceptsBothValueSpellings() throws {
        let invocation = try parse([
            "merge", "--server=s.json", "--client", "c.json", "--ancestor", "a.json", "-o", "m.json",
            "--assets=assets",
        ])
        let expected = MergeOptions(
            inputs: .conflict(server: "s.json", client: "c.json", ancestor: "a.json"),
            assets: "assets", output: .file("m.json"))
        #expect(invocation == .merge(expected))
    }

    @Test func mergeVersionsFormKeepsOrderAndDefaultsToStandardOutput() throws {
        let invocation = try parse(["merge", "r1.json", "r2.json", "--", "-r3.json"])
        #expect(invocation == .merge(MergeOptions(
            inputs: .versions(["r1.json", "r2.json", "-r3.json"]), assets: nil, output: .standardOutput)))
    }

    @Test func dashOutputMeansStandardOutput() throws {
        guard case .merge(let options) = try parse(["merge", "a", "b", "-o", "-"]) else {
            Issue.record("not a merge")
            return
        }
        #expect(options.output == .standardOutput)
    }

    @Test func ancestorWithoutConflictFormIsRejected() {
        #expect(usageMessage(["merge", "a", "b", "--ancestor", "x"])?.contains("not both") == true)
    }

    @Test func standardInputMayBeReadOnlyOnce() {
        #expect(usageMessage(["merge", "-", "-"])?.contains("only one input") == true)
        #expect(usageMessage(["edit", "-", "-o", "out", "--replica", "1"])?.contains("only one input") == true)
    }

    @Test func newReadsStandardInputByDefault() throws {
        let invocation = try parse(["new", "--replica", "18446744073709551615", "--name", "note-1"])
        #expect(invocation == .new(NewOptions(
            replica: ReplicaID(rawValue: .max), textPath: "-", recordName: "note-1", output: .standardOutput)))
    }

    @Test func editRewritesInPlaceByDefault() throws {
        let invocation = try parse(["edit", "n.json", "--replica", "7", "--text", "t.txt"])
        #expect(invocation == .edit(EditOptions(
            recordPath: "n.json", replica: .test(7), textPath: "t.txt", output: .file("n.json"), assets: nil)))
    }

    @Test func simulateParsesEveryOption() throws {
        let invocation = try parse([
            "simulate", "--devices", "3", "--notes=2", "--edits", "100", "--fault-rate", "0", "--seed",
            "0xFFFFFFFFFFFFFFFF", "--json",
        ])
        #expect(invocation == .simulate(SimulateOptions(
            devices: 3, notes: 2, edits: 100, faultRate: 0, seed: .max, json: true)))
    }

    @Test func replayDefaultsToOneRun() throws {
        #expect(try parse(["replay", "t.json"]) == .replay(ReplayOptions(tracePath: "t.json", json: false, runs: 1)))
    }

    @Test func verifyTakesManyRecords() throws {
        #expect(try parse(["verify", "a", "b", "c"]) == .verify(VerifyOptions(recordPaths: ["a", "b", "c"], assets: nil)))
    }

    @Test func helpForms() throws {
        #expect(try parse(["--help"]) == .help(nil))
        #expect(try parse(["help"]) == .help(nil))
        #expect(try parse(["help", "edit"]) == .help(.edit))
        #expect(try parse(["--help", "edit"]) == .help(.edit))
        #expect(try parse(["help", "--help"]) == .help(.help))
        #expect(try parse(["show", "x", "-h"]) == .help(.show))
        #expect(try parse(["--version"]) == .version)
    }

    @Test func emptyValuesAreRejected() {
        #expect(usageMessage(["text", "r", "--assets="]) == "option '--assets' needs a non-empty value")
        #expect(usageMessage(["text", ""]) == "RECORD must not be empty")
    }

    @Test(arguments: [
        ("0", UInt64(0)), ("42", 42), ("0x2a", 42), ("0X2A", 42), ("18446744073709551615", .max),
        ("0xffffffffffffffff", .max),
    ])
    func replicaIDsParse(_ text: String, _ expected: UInt64) {
        #expect(ParsedArguments(command: "new", values: ["--replica": [text]]).replicaIDValue == expected)
    }

    @Test(arguments: ["", "-1", "+1", " 1", "1 ", "0x", "0x-1", "0x1g", "1e3", "18446744073709551616",
                      "0x10000000000000000", "\u{FF11}", "0x\u{FF21}"])
    func badReplicaIDsAreRejected(_ text: String) {
        #expect(ParsedArguments(command: "new", values: ["--replica": [text]]).replicaIDValue == nil)
    }

    @Test func errorRenderingOmitsMissingParts() {
        let full = CLIError(code: .dataError, message: "bad base64", file: "r.json", location: "fields.payload")
        #expect(full.rendered == "crdtnote: error: r.json: fields.payload: bad base64\n")
        #expect(full.exitStatus == .dataError)
        let bare = CLIError(code: .newerFormat, message: "format 3 is newer than this crdtnote")
        #expect(bare.rendered == "crdtnote: error: format 3 is newer than this crdtnote\n")
        #expect(bare.exitStatus.rawValue == 75)
        #expect(CLIError.usage("x", command: "new").rendered == "crdtnote: error: x\ncrdtnote: see 'crdtnote help new'\n")
    }

    @Test func everyKindMapsToItsDocumentedStatus() {
        let expected: [(CLIError.Code, Int32)] = [
            (.usage, 64), (.noInput, 66), (.dataError, 65), (.newerFormat, 75), (.operationFailed, 1),
            (.cannotWrite, 73), (.internalFailure, 70),
        ]
        for (code, status) in expected {
            #expect(CLIError(code: code, message: "m").exitStatus.rawValue == status, "\(code.rawValue)")
        }
        let documented = Set(ExitStatus.documented.map(\.status.rawValue))
        #expect(documented == Set(expected.map(\.1) + [0]))
    }
}
