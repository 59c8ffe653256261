import Testing
@testable import CRDTNote
import CRDTNoteDurableFiles
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// Power loss at random moments, on the fault-injecting file system (unflushed writes dropped or
/// torn at a random point): the library always opens, holds every note as it was after some
/// call no earlier than the last one that made it durable, and never part of a call.
///
/// The oracle is a dictionary of plain strings edited with the same operations by the
/// standard library's `String`, not the CRDT.
@Suite struct NoteLibraryPowerLossTests {
    enum Step {
        case create(String, String)
        case insert(String, offset: Int, String)
        case remove(String, from: Int, count: Int)
        case setText(String, String)
        case delete(String)
        case flush
        case compact
        case reopen
    }

    /// A random next step for the library whose notes are `model`.
    static func step(_ rng: inout SplitMix64, model: [String: String]) -> Step {
        let names = model.keys.sorted()
        let roll = rng.next() % 100
        if names.isEmpty || roll < 12 {
            return .create("n\(rng.next() % 6)", RandomText.make(&rng, maxPieces: 8))
        }
        let name = names[Int(rng.next() % UInt64(names.count))]
        let count = model[name]?.unicodeScalars.count ?? 0
        switch roll {
        case ..<50: return .insert(name, offset: Int(rng.next() % UInt64(count + 1)), RandomText.make(&rng, maxPieces: 3))
        case ..<65:
            let from = Int(rng.next() % UInt64(count + 1))
            return .remove(name, from: from, count: Int(rng.next() % UInt64(count - from + 1)))
        case ..<70: return .setText(name, RandomText.make(&rng, maxPieces: 6))
        case ..<74: return .delete(name)
        case ..<88: return .flush
        case ..<94: return .compact
        default: return .reopen
        }
    }

    /// `model` after `step`.
    static func apply(_ step: Step, to model: inout [String: String]) {
        switch step {
        case .create(let name, let text): if model[name] == nil { model[name] = text }
        case .insert(let name, let offset, let text):
            guard var scalars = model[name].map({ Array($0.unicodeScalars) }) else { return }
            scalars.insert(contentsOf: text.unicodeScalars, at: offset)
            model[name] = String(String.UnicodeScalarView(scalars))
        case .remove(let name, let from, let count):
            guard var scalars = model[name].map({ Array($0.unicodeScalars) }) else { return }
            scalars.removeSubrange(from..<from + count)
            model[name] = String(String.UnicodeScalarView(scalars))
        case .setText(let name, let text): model[name] = text
        case .delete(let name): model[name] = nil
        case .flush, .compact, .reopen: break
        }
    }

    /// Runs `step` on `library` (reopening replaces it). Returns whether the step made
    /// everything before it durable.
    static func run(_ step: Step, on library: inout NoteLibrary, fileSystem: FaultInjectingFileSystem, model: [String: String]) throws -> Bool {
        switch step {
        case .create(let name, let text):
            if model[name] == nil { try library.create(name, text: text) }
        case .insert(let name, let offset, let text):
            try library.edit(name) { (note: inout NoteText) throws(NoteTextError) in try note.insert(text, atScalarOffset: offset) }
        case .remove(let name, let from, let count):
            try library.edit(name) { (note: inout NoteText) throws(NoteTextError) in try note.deleteScalars(in: from..<from + count) }
        case .setText(let name, let text): try library.setText(text, of: name)
        case .delete(let name): try library.delete(name)
        case .flush:
            try library.flush()
            return true
        case .compact:
            try library.compact()
            return true
        case .reopen:
            fileSystem.crashProcess()  // the process dies; the kernel keeps its writes
            library = try NoteLibrary(folder: "/library", replica: .test(7), fileSystem: fileSystem)
        }
        return false
    }

    static func texts(of library: NoteLibrary) throws -> [String: String] {
        var out: [String: String] = [:]
        for summary in try library.list() { out[summary.name] = try library.text(of: summary.name) }
        return out
    }

    @Test(arguments: 0..<10)
    func everyDurableCallSurvivesAPowerLoss(batch: UInt64) throws {
        var lostPower = 0
        for seed in batch * 100..<batch * 100 + 100 {
            var rng = SplitMix64(seed: seed)
            let fileSystem = FaultInjectingFileSystem()
            var options = NoteLibrary.Options()
            options.compactionThreshold = 600  // compact often, inside flushes too
            var library = try NoteLibrary.create(folder: "/library", replica: .test(7), options: options, fileSystem: fileSystem)
            var model: [String: String] = [:]
            var states = [model]        // the model after each step
            var durable = 0             // index in `states` of the last state made durable
            fileSystem.inject(.powerLoss, onOperation: 1 + Int(rng.next() % 120))
            var failedAt: Int?
            for _ in 0..<40 {
                let step = Self.step(&rng, model: model)
                do {
                    let madeDurable = try Self.run(step, on: &library, fileSystem: fileSystem, model: model)
                    Self.apply(step, to: &model)
                    states.append(model)
                    if madeDurable { durable = states.count - 1 }
                } catch {
                    // The power went off during this step: it may have happened whole or not at all.
                    var after = model
                    Self.apply(step, to: &after)
                    states.append(after)
                    failedAt = states.count - 1
                    break
                }
            }
            let last = failedAt ?? states.count - 1
            if failedAt != nil { lostPower += 1 }
            fileSystem.crash(using: &rng)
            let recovered = try NoteLibrary(folder: "/library", replica: .test(8), fileSystem: fileSystem)
            let found = try Self.texts(of: recovered)
            let candidates = states[durable...last]
            #expect(candidates.contains(found), "seed \(seed): recovered \(found), durable state \(states[durable]), \(last - durable) later states allowed")
            // And the recovered library keeps working.
            try recovered.create("after-crash", text: "ok")
            try recovered.flush()
            #expect(try recovered.text(of: "after-crash") == "ok")
        }
        #expect(lostPower > 30, "only \(lostPower) of 100 runs lost power mid-run")
    }

    /// A compaction writing a pack, without and with a repack, cut by a power loss at each of its
    /// operations in turn; the crash then drops what was not flushed, or (in a second run per
    /// step) drops or tears it at random. Every note was flushed before the compaction, so the
    /// library must hold every note as it was, whether the old or the new index is in force,
    /// and its next compaction must leave only the packs its index refers to.
    @Test(arguments: [false, true])
    func aCompactionCutAtEveryStepLosesNothing(repack: Bool) throws {
        var step = 1
        var completed = false
        while !completed {
            for tear in [false, true] {
                let fileSystem = FaultInjectingFileSystem()
                var library = try NoteLibrary.create(folder: "/library", replica: .test(7), fileSystem: fileSystem)
                var rng = SplitMix64(seed: UInt64(step) << 1 | (tear ? 1 : 0))
                var model: [String: String] = [:]
                for i in 0..<10 {
                    let text = RandomText.make(&rng, maxPieces: 8)
                    try library.create("n\(i)", text: text)
                    model["n\(i)"] = text
                }
                try library.compact()  // pack-2
                try library.setText("one", of: "n0")
                model["n0"] = "one"
                try library.compact()  // pack-3 beside pack-2
                // Without repack, one note changes; with, seven do, leaving pack-2 mostly dead.
                for i in repack ? 0..<7 : 1..<2 {
                    let text = "changed \(i) " + RandomText.make(&rng, maxPieces: 8)
                    try library.setText(text, of: "n\(i)")
                    model["n\(i)"] = text
                }
                try library.delete("n9")
                model["n9"] = nil
                try library.setField("pinned", to: .bool(true), of: "n8")
                try library.flush()
                fileSystem.inject(.powerLoss, onOperation: step)
                do {
                    try library.compact()
                    // The power cut was due after the compaction's last operation.
                    completed = true
                    let expected = repack ? ["pack-4"] : ["pack-2", "pack-3", "pack-4"]
                    #expect(try fileSystem.contentsOfDirectory(at: "/library/notes") == expected)
                } catch {
                    #expect(fileSystem.isPoweredOff, "step \(step): \(error)")
                }
                if tear { fileSystem.crash(using: &rng) } else { fileSystem.crash() }
                library = try NoteLibrary(folder: "/library", replica: .test(8), fileSystem: fileSystem)
                #expect(try Self.texts(of: library) == model, "step \(step), tear \(tear)")
                #expect(library.openReport.damagedNotes.isEmpty, "step \(step): \(library.openReport.damagedNotes)")
                #expect(try library.fields(of: "n8") == ["pinned": .bool(true)])
                #expect(try library.pendingDeletes == ["n9"])
                try library.compact()
                #expect(try Self.texts(of: library) == model)
                let referenced = library.locked {
                    Set(library.state.index.notes.compactMap { $0.snapshot?.blob.map { "pack-\($0.generation)" } })
                }
                #expect(Set(try fileSystem.contentsOfDirectory(at: "/library/notes")) == referenced, "step \(step)")
            }
            step += 1
        }
        #expect(step > 20, "the compaction took only \(step - 1) operations")
    }
}
