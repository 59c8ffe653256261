import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport
import Foundation

/// `crdtnote-bench library`: a note library of N notes of about 3 KB of typed prose (Docs/BENCHMARKS.md,
/// "Note library"). Built once in a temporary folder (untimed), then: open and list, first read of a
/// note, one small edit made durable, what that writes, the files' size against the text, a compaction.
enum LibraryBench {
    struct Result {
        var notes: Int
        var textBytes: Int
        var openMs: Double
        var openRSSMB: Double
        var editFlushMs: Double
        var bytesWrittenPerEdit: Double
        var diskBytesOverText: Double
        var loadNoteMs: Double
        var compactMs: Double
        /// A compaction after every note changed (what a new device's first download causes).
        var compactAllMs: Double

        var json: JSONValue {
            var o = JSONObject()
            o["notes"] = .int(notes)
            o["text_bytes"] = .int(textBytes)
            o["open_ms"] = .double(openMs)
            o["open_rss_mb"] = .double(openRSSMB)
            o["edit_flush_ms"] = .double(editFlushMs)
            o["bytes_written_per_edit"] = .double(bytesWrittenPerEdit)
            o["disk_bytes_over_text"] = .double(diskBytesOverText)
            o["load_note_ms"] = .double(loadNoteMs)
            o["compact_ms"] = .double(compactMs)
            o["compact_all_ms"] = .double(compactAllMs)
            return .object(o)
        }

        var lines: [String] {
            [
                "note library: \(notes) notes, \(Format.bytes(textBytes)) of text (medians)",
                "open + list              \(Format.ms(openMs)) (in a fresh process)",
                "memory the open added    \(Format.fixed(openRSSMB, 1)) MB (resident, in a fresh process)",
                "edit + flush             \(Format.ms(editFlushMs))",
                "bytes written per edit   \(Format.fixed(bytesWrittenPerEdit, 0)) B beyond the edit's text",
                "disk / text              \(Format.fixed(diskBytesOverText, 3))",
                "first read of a note     \(Format.ms(loadNoteMs))",
                "compaction (100 edited)  \(Format.ms(compactMs))",
                "compaction (all edited)  \(Format.ms(compactAllMs))",
            ]
        }
    }

    static func run(notes count: Int, runs: Int) throws -> Result {
        let root = NSTemporaryDirectory() + "crdtnote-bench-library-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/library"
        var rng = SplitMix64(seed: 0x11B)
        // Build: every note typed in memory, stored, then one compaction writes the snapshots.
        let builder = try NoteLibrary.create(folder: folder, replica: ReplicaID(rawValue: 1))
        var textBytes = 0
        for i in 0..<count {
            let note = try typedNote(&rng, replica: ReplicaID(rawValue: 1 + UInt64(i % 3)))
            textBytes += note.utf8.count
            try builder.save(note, as: "note-\(i)")
        }
        try builder.close()

        var open: [Double] = [], rss: [Double] = [], load: [Double] = []
        for run in 0..<runs {
            let probe = try LibraryOpenProbe.measure(folder)
            open.append(probe.ms)
            rss.append(Double(probe.bytes) / 1_048_576)
            let library = try NoteLibrary(folder: folder, replica: ReplicaID(rawValue: 9))
            for k in 0..<5 {
                let name = "note-\((run * 7919 + k * 104_729) % count)"
                load.append(try Measure.time { try library.text(of: name) }.ms)
            }
        }

        // Edits: one inserted character into one (already read) note, then flush.
        let library = try NoteLibrary(folder: folder, replica: ReplicaID(rawValue: 9))
        let journal = try journalSize(folder)
        var editMs: [Double] = []
        let edits = max(runs * 20, 50)
        for i in 0..<edits {
            let name = "note-\((i * 31) % count)"
            _ = try library.text(of: name)
            editMs.append(try Measure.time {
                try library.edit(name) { (note: inout NoteText) throws(NoteTextError) in
                    try note.insert("x", atScalarOffset: note.scalarCount / 2)
                }
                try library.flush()
            }.ms)
        }
        let written = Double(try journalSize(folder) - journal) / Double(edits) - 1

        // Compaction after 100 notes were edited once each.
        var compact: [Double] = []
        for run in 0..<runs {
            for k in 0..<100 {
                try library.edit("note-\((run * 100 + k) % count)") { (note: inout NoteText) throws(NoteTextError) in
                    try note.insert("y", atScalarOffset: 0)
                }
            }
            try library.flush()
            compact.append(try Measure.time { try library.compact() }.ms)
        }
        let disk = try folderBytes(folder)

        // Compaction after every note was edited once (a first download changes them all).
        var compactAll: [Double] = []
        for run in 0..<runs {
            for i in 0..<count {
                try library.edit("note-\(i)") { (note: inout NoteText) throws(NoteTextError) in
                    try note.insert(run % 2 == 0 ? "z" : "w", atScalarOffset: 0)
                }
            }
            try library.flush()
            compactAll.append(try Measure.time { try library.compact() }.ms)
        }
        return Result(notes: count, textBytes: textBytes, openMs: Timing(samples: open).median,
                      openRSSMB: Timing(samples: rss).median, editFlushMs: Timing(samples: editMs).median,
                      bytesWrittenPerEdit: written, diskBytesOverText: Double(disk) / Double(textBytes + edits + runs * 100),
                      loadNoteMs: Timing(samples: load).median, compactMs: Timing(samples: compact).median,
                      compactAllMs: Timing(samples: compactAll).median)
    }

    /// A note of about 3 KB typed as people type: words in bursts of a few characters, a
    /// correction now and then, a new paragraph every few sentences.
    static func typedNote(_ rng: inout SplitMix64, replica: ReplicaID) throws -> NoteText {
        let words = ["the", "note", "meeting", "tomorrow", "call", "Anna", "about", "budget", "and", "list",
                     "milk", "eggs", "remember", "project", "draft", "review", "idea", "garden", "trip", "book"]
        var note = NoteText(replica: replica)
        let target = 2_800 + Int(rng.next() % 500)
        var sentence = 0
        while note.scalarCount < target {
            var word = words[Int(rng.next() % UInt64(words.count))]
            if sentence == 0 { word = word.prefix(1).uppercased() + word.dropFirst() }
            sentence += 1
            let ending = sentence > 8 + Int(rng.next() % 6) ? (rng.next() % 4 == 0 ? ".\n" : ". ") : " "
            if ending != " " { sentence = 0 }
            var typed = Substring(word + ending)
            while !typed.isEmpty {
                let burst = 1 + Int(rng.next() % 6)
                try note.insert(String(typed.prefix(burst)), atScalarOffset: note.scalarCount)
                typed = typed.dropFirst(burst)
                if rng.next() % 40 == 0, note.scalarCount > 2 {
                    try note.deleteScalars(in: note.scalarCount - 2..<note.scalarCount)
                    try note.insert("  ", atScalarOffset: note.scalarCount)
                }
            }
        }
        return note
    }

    private static func journalSize(_ folder: String) throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("journal-") }
        guard let name = names.first else { return 0 }
        return (try FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0
    }

    /// The sum of the sizes of every file under `folder`.
    private static func folderBytes(_ folder: String) throws -> Int {
        var total = 0
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return 0 }
        while let name = walker.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            if attributes[.type] as? FileAttributeType == .typeRegular { total += (attributes[.size] as? Int) ?? 0 }
        }
        return total
    }
}

/// The process's resident memory now (Linux: `/proc/self/statm`; elsewhere the peak so far).
enum Memory {
    static func residentBytes() -> Int {
        #if os(Linux)
        if let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let fields = text.split(separator: " ")
            if fields.count > 1, let pages = Int(fields[1]) { return pages * Int(sysconf(Int32(_SC_PAGESIZE))) }
        }
        #endif
        return Measure.peakRSSBytes()
    }
}

/// Opening a library in a fresh process, so the memory the open adds is not hidden by heap the
/// benchmark freed before (a process that built the library would reuse it).
enum LibraryOpenProbe {
    static let variable = "CRDTNOTE_BENCH_OPEN_LIBRARY"

    /// In the child: opens and lists the library named by the variable, prints
    /// "<open ms> <resident bytes added>" and returns true; false when not the child.
    static func runIfChild() -> Bool {
        guard let folder = ProcessInfo.processInfo.environment[variable] else { return false }
        let before = Memory.residentBytes()
        do {
            let (ms, library) = try Measure.time { () throws -> NoteLibrary in
                let library = try NoteLibrary(folder: folder, replica: ReplicaID(rawValue: 9))
                _ = try library.list()
                return library
            }
            print("\(ms) \(Memory.residentBytes() - before)")
            withExtendedLifetime(library) {}
        } catch {
            printError("crdtnote-bench: \(error)")
            exit(1)
        }
        return true
    }

    /// Runs the child on `folder`: the open's time and the resident bytes it added.
    static func measure(_ folder: String) throws -> (ms: Double, bytes: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["library"]
        process.environment = ProcessInfo.processInfo.environment.merging([variable: folder]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard process.terminationStatus == 0, fields.count == 2, let ms = Double(fields[0]), let bytes = Int(fields[1]) else {
            throw UsageError("the open probe failed (status \(process.terminationStatus))")
        }
        return (ms, bytes)
    }
}
