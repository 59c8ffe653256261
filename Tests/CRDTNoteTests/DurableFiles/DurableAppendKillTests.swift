import Foundation
import Testing
@testable import CRDTNoteDurableFiles
@testable import CRDTNoteToolSupport

/// A real child process (`DurableAppendChild`) appends and flushes numbered records through the
/// file layer and acknowledges each on standard output after its flush; it is killed with
/// SIGKILL at a seeded moment. Every acknowledged record must then be in the file exactly once,
/// in order, with at most the one record whose acknowledgement the kill cut off after them.
@Suite struct DurableAppendKillTests {
    /// The size of one record: "record 00000042\n".
    static let recordSize = 16

    /// Record `n` as the child writes it.
    static func record(_ n: Int) -> [UInt8] {
        let digits = String(n)
        return Array(("record " + String(repeating: "0", count: max(0, 8 - digits.count)) + digits + "\n").utf8)
    }

    /// The built child: beside the test bundle (SwiftPM puts executables and the `.xctest` in one
    /// `.build/<config>` folder), else in `.build/debug`.
    static func childExecutable() -> URL? {
        var folders: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let argument = CommandLine.arguments.first, argument.contains("/") {
            var url = URL(fileURLWithPath: argument).deletingLastPathComponent()
            for _ in 0..<4 { // on Darwin the test binary sits inside X.xctest/Contents/MacOS
                folders.append(url)
                url = url.deletingLastPathComponent()
            }
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        folders.append(packageRoot.appendingPathComponent(".build/debug"))
        return folders.map { $0.appendingPathComponent("DurableAppendChild") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test func everyAcknowledgedAppendSurvivesSIGKILLExactlyOnce() throws {
        let child = try #require(Self.childExecutable(), "build the DurableAppendChild executable first (swift build)")
        let folder = NSTemporaryDirectory() + "crdtnote-kill-\(UUID().uuidString)"
        try PosixFileSystem().createDirectories(at: folder)
        defer { try? PosixFileSystem().removeTree(at: folder) }

        var totalAcknowledged = 0
        for seed in 1...5 as ClosedRange<UInt64> {
            var random = SplitMix64(seed: 0xC1_0000 + seed)
            let file = folder + "/log-\(seed)"
            // Kill after this many acknowledgements, plus up to 2 ms, so the kill lands anywhere
            // in the loop: during a write, a flush, or between a flush and its acknowledgement.
            let killAfter = 1 + random.below(40)
            let extraMicroseconds = UInt32(random.below(2_000))

            let process = Process()
            process.executableURL = child
            process.arguments = [file]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let pid = process.processIdentifier
            // A stuck child must not hang the suite (cancelled once the child is reaped).
            let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)

            var received = Data()
            let reader = output.fileHandleForReading
            while received.filter({ $0 == 0x0A }).count < killAfter {
                let chunk = reader.availableData
                if chunk.isEmpty { break } // the child ended on its own: checked below
                received.append(chunk)
            }
            usleep(extraMicroseconds)
            kill(pid, SIGKILL)
            process.waitUntilExit()
            watchdog.cancel()
            received.append(reader.readDataToEndOfFile())
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
                    "seed \(seed): the child ended by itself (status \(process.terminationStatus))")

            // Acknowledged: the complete "ack <n>" lines, which must count up from 0.
            let lines = String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let complete = lines.dropLast() // what follows the last newline is empty or cut off
            let acknowledged = complete.count
            for (index, line) in complete.enumerated() {
                #expect(line == "ack \(index)", "seed \(seed)")
            }
            #expect(acknowledged >= killAfter, "seed \(seed)")

            // The file: whole records 0, 1, 2, ... — each exactly once, in order.
            let bytes = try PosixFileSystem().readFile(at: file)
            #expect(bytes.count % Self.recordSize == 0, "seed \(seed): a torn record")
            let count = bytes.count / Self.recordSize
            for index in 0..<count {
                let slice = Array(bytes[(index * Self.recordSize)..<((index + 1) * Self.recordSize)])
                #expect(slice == Self.record(index), "seed \(seed): record \(index) is \(String(decoding: slice, as: UTF8.self))")
            }
            #expect(count >= acknowledged, "seed \(seed): \(acknowledged) acknowledged, \(count) in the file")
            #expect(count <= acknowledged + 1, "seed \(seed): more than one record beyond the acknowledged ones")
            totalAcknowledged += acknowledged
        }
        #expect(totalAcknowledged >= 5)
    }
}
