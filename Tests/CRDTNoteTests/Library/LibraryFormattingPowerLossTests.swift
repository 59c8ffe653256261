import Testing
@testable import CRDTNote
import CRDTNoteDurableFiles
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// Power loss at random moments while a library formats notes (Docs/LIBRARY.md, "Durability"):
/// after the crash the library opens holding every note as it was after some call no earlier
/// than the last flush — its text (checked against a plain `String` model) and the attributes of
/// every character (as shown before the crash) — so every acknowledged formatting edit is there
/// exactly once, and no formatting operation names text the journal lost.
@Suite struct LibraryFormattingPowerLossTests {
    typealias Model = LibraryFormattingModel

    /// A note as a state to compare: its text and every character's attributes.
    struct Shown: Hashable {
        var text: String
        var characters: [Model.Attributes]
    }

    static func shown(_ library: NoteLibrary) throws -> [String: Shown] {
        var out: [String: Shown] = [:]
        for summary in try library.list() {
            let note = try library.note(summary.name)
            out[summary.name] = Shown(text: note.string, characters: try Model.characters(note))
        }
        return out
    }

    @Test(arguments: 0..<4)
    func everyDurableFormattingEditSurvivesAPowerLoss(batch: UInt64) throws {
        var lostPower = 0
        for seed in batch * 50..<batch * 50 + 50 {
            var rng = SplitMix64(seed: seed &+ 7_000)
            let disk = FaultInjectingFileSystem()
            var options = NoteLibrary.Options()
            options.compactionThreshold = 900  // compact often, inside flushes too
            var library = try NoteLibrary.create(folder: "/library", replica: .test(7), options: options, fileSystem: disk)
            var model = Model()
            var texts: [String: String] = [:]
            var states = [try Self.shown(library)]
            var durable = 0
            disk.inject(.powerLoss, onOperation: 1 + Int(rng.next() % 150))
            var failedAt: Int?
            // The note a call was making: if the power cut it, the call happened whole or not at all.
            var attempt: (name: String, shown: Shown)?
            for _ in 0..<40 {
                attempt = nil
                let names = texts.keys.sorted()
                let roll = rng.next() % 100
                do throws(any Error) {
                    var madeDurable = false
                    if names.isEmpty || roll < 8 {
                        let name = "n\(rng.next() % 3)"
                        if texts[name] == nil {
                            let text = RandomText.make(&rng, maxPieces: 6)
                            let plain = Model.Attributes(marks: [:], paragraph: ParagraphAttributes())
                            attempt = (name, Shown(text: text, characters: Array(repeating: plain, count: text.unicodeScalars.count)))
                            try library.create(name, text: text)
                            texts[name] = text
                        }
                    } else {
                        let name = names[Int(rng.next() % UInt64(names.count))]
                        switch roll {
                        case ..<35:
                            let count = texts[name]?.unicodeScalars.count ?? 0
                            let at = Int(rng.next() % UInt64(count + 1))
                            let text = RandomText.make(&rng, maxPieces: 2)
                            var copy = rng
                            // Text and formatting in one call, sometimes: one frame.
                            try model.edit(library, name) { note in
                                try note.insert(text, atScalarOffset: at)
                                if copy.next() % 3 == 0 { try Model.format(&note, &copy) }
                                texts[name] = note.string
                                attempt = (name, Shown(text: note.string, characters: try Model.characters(note)))
                            }
                            rng = copy
                        case ..<70:
                            var copy = rng
                            try model.edit(library, name) { note in
                                try Model.format(&note, &copy)
                                texts[name] = note.string
                                attempt = (name, Shown(text: note.string, characters: try Model.characters(note)))
                            }
                            rng = copy
                        case ..<78:
                            let count = texts[name]?.unicodeScalars.count ?? 0
                            let from = Int(rng.next() % UInt64(count + 1))
                            let range = from..<min(count, from + Int(rng.next() % 5))
                            try model.edit(library, name) { note in
                                try note.deleteScalars(in: range)
                                texts[name] = note.string
                                attempt = (name, Shown(text: note.string, characters: try Model.characters(note)))
                            }
                        case ..<90:
                            try library.flush()
                            madeDurable = true
                        case ..<95:
                            try library.compact()
                            madeDurable = true
                        default:
                            disk.crashProcess()
                            library = try NoteLibrary(folder: "/library", replica: .test(7), options: options, fileSystem: disk)
                        }
                    }
                    states.append(try Self.shown(library))
                    if madeDurable { durable = states.count - 1 }
                } catch {
                    // The power went off in this call: it happened whole or not at all.
                    #expect(disk.isPoweredOff, "seed \(seed): \(error)")
                    if let attempt {
                        var after = states[states.count - 1]
                        after[attempt.name] = attempt.shown
                        states.append(after)
                    }
                    failedAt = states.count - 1
                    break
                }
            }
            if failedAt != nil { lostPower += 1 }
            disk.crash(using: &rng)
            let recovered = try NoteLibrary(folder: "/library", replica: .test(8), fileSystem: disk)
            let found = try Self.shown(recovered)
            let last = states.count - 1
            let allowed = states[durable...last].contains(found)
            #expect(allowed,
                    "seed \(seed): recovered \(found.mapValues(\.text)), durable \(states[durable].mapValues(\.text)), \(last - durable) later states allowed")
            for summary in try recovered.list() {
                #expect(try Model.namesOnlyItsElements(recovered.note(summary.name)), "seed \(seed), \(summary.name)")
            }
            #expect(recovered.openReport.damagedNotes.isEmpty, "seed \(seed): \(recovered.openReport.damagedNotes)")
            #expect(try recovered.verify().isEmpty, "seed \(seed)")
        }
        #expect(lostPower > 15, "only \(lostPower) of 50 runs lost power mid-run")
    }
}
