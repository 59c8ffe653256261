import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Undo and redo of deletions against a model that knows nothing of runs, ids or byte ranges: a
/// list of characters, each visible or not. Deletions span several runs of both devices (the
/// text is typed by both in many places), backspacing and forward deleting group into one step
/// (one character or several at a time), and the other device deletes part of the same text
/// concurrently, or deletes and types elsewhere in between.
@Suite struct NoteTextUndoDeletionPropertyTests {
    /// The phone's text as characters that keep their identity when undo brings them back
    /// (as new elements, at the place they were).
    struct Model {
        struct Entry { var key: Int; var scalar: Unicode.Scalar; var visible: Bool }
        var entries: [Entry] = []
        var nextKey = 0

        init(_ text: String) { _ = insert(text, at: 0) }

        var text: String { String(String.UnicodeScalarView(entries.filter(\.visible).map(\.scalar))) }
        /// Keys of the visible characters, in order.
        var visibleKeys: [Int] { entries.filter(\.visible).map(\.key) }

        /// Inserts `text` at visible offset `p`, right after the visible character before it
        /// (where a local insertion goes); returns the new keys.
        mutating func insert(_ text: String, at p: Int) -> [Int] {
            var index = 0
            if p > 0 {
                var seen = 0
                while index < entries.count {
                    if entries[index].visible { seen += 1 }
                    index += 1
                    if seen == p { break }
                }
            }
            let new = text.unicodeScalars.map { s -> Entry in
                defer { nextKey += 1 }
                return Entry(key: nextKey, scalar: s, visible: true)
            }
            entries.insert(contentsOf: new, at: index)
            return new.map(\.key)
        }

        /// Sets the visibility of the characters `keys`; returns those whose visibility changed.
        @discardableResult
        mutating func set(_ keys: [Int], visible: Bool) -> [Int] {
            let wanted = Set(keys)
            var changed: [Int] = []
            for i in entries.indices where wanted.contains(entries[i].key) && entries[i].visible != visible {
                entries[i].visible = visible
                changed.append(entries[i].key)
            }
            return changed
        }
    }

    /// What reverses a step: characters to hide (where still visible) and characters to bring back.
    struct Step { var hide: [Int]; var show: [Int] }

    /// Performs `step` on the model; returns its inverse, or nil when it changes nothing.
    static func perform(_ step: Step, on model: inout Model) -> Step? {
        let hidden = model.set(step.hide, visible: false)
        let shown = model.set(step.show, visible: true)
        // Text to bring back is always hidden (only this device's steps bring text back).
        #expect(shown.count == step.show.count, "the model brought back text that was visible")
        if hidden.isEmpty && shown.isEmpty { return nil }
        return Step(hide: shown, show: hidden)
    }

    /// Deletes the visible offsets `range` of both the note and the model; returns the hidden keys.
    static func delete(_ range: Range<Int>, in note: inout NoteText, model: inout Model) throws -> [Int] {
        try note.deleteScalars(in: range)
        return model.set(Array(model.visibleKeys[range]), visible: false)
    }

    @Test(arguments: Array(1...40) as [UInt64])
    func undoOfDeletionsFollowsTheModel(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var phone = try NoteText("The quick brown fox", replica: .test(1))
        var laptop = phone.forked(as: .test(2))
        // Both devices type in many places (and delete a little): text of many short runs,
        // with tombstones between them.
        for _ in 0..<40 {
            for device in 0..<2 {
                var note = device == 0 ? phone : laptop
                try note.insert(RandomText.make(&rng, maxPieces: 3), atScalarOffset: Int.random(in: 0...note.scalarCount, using: &rng))
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    let at = Int.random(in: 0..<note.scalarCount, using: &rng)
                    try note.deleteScalars(in: at..<min(note.scalarCount, at + 2))
                }
                if device == 0 { phone = note } else { laptop = note }
            }
            try phone.merge(laptop)
            try laptop.merge(phone)
        }
        phone.undoLimit = 100
        var model = Model(phone.string)
        var undoSteps: [Step] = []
        var redoSteps: [Step] = []

        func check(_ what: String, _ round: Int) -> Bool {
            let ok = phone.string == model.text
            #expect(ok, "seed \(seed) round \(round) \(what): \(phone.string.debugDescription) but the model says \(model.text.debugDescription)")
            #expect(phone.invariantViolations == [], "seed \(seed) round \(round) \(what)")
            return ok
        }

        for round in 0..<60 {
            try laptop.merge(phone)
            // Sometimes the other device types or deletes first (merged before the phone edits).
            if Int.random(in: 0..<3, using: &rng) == 0 {
                let at = Int.random(in: 0...laptop.scalarCount, using: &rng)
                let text = RandomText.make(&rng, maxPieces: 3)
                try laptop.insert(text, atScalarOffset: at)
                _ = model.insert(text, at: at)
            }
            if Int.random(in: 0..<4, using: &rng) == 0, laptop.scalarCount > 0 {
                let at = Int.random(in: 0..<laptop.scalarCount, using: &rng)
                let end = min(laptop.scalarCount, at + Int.random(in: 1...4, using: &rng))
                try laptop.deleteScalars(in: at..<end)
                model.set(Array(model.visibleKeys[at..<end]), visible: false)
            }
            try phone.merge(laptop)
            try laptop.merge(phone)
            guard check("after the laptop's edits", round) else { return }

            // One step of the phone: typing, a deletion spanning runs, backspacing or deleting
            // forwards a character or a few at a time.
            let keysBefore = model.visibleKeys
            var typed: [Int] = []
            var deleted: [Int] = []
            let count = phone.scalarCount
            switch Int.random(in: 0..<8, using: &rng) {
            case 0:
                let at = Int.random(in: 0...count, using: &rng)
                let text = RandomText.make(&rng, maxPieces: 3)
                try phone.insert(text, atScalarOffset: at)
                typed = model.insert(text, at: at)
            case 1, 2:
                let at = Int.random(in: 0...count, using: &rng)
                let end = min(count, at + Int.random(in: 1...12, using: &rng))
                if Bool.random(using: &rng) {
                    deleted = try Self.delete(at..<end, in: &phone, model: &model)
                } else {
                    let text = RandomText.make(&rng, maxPieces: 2)
                    try phone.replaceScalars(in: at..<end, with: text)
                    deleted = model.set(Array(model.visibleKeys[at..<end]), visible: false)
                    typed = model.insert(text, at: at)
                }
            case 3, 4, 5:
                // Backspacing: each deletion ends where the previous one began.
                var end = Int.random(in: 0...count, using: &rng)
                for _ in 0..<Int.random(in: 1...8, using: &rng) where end > 0 {
                    let length = min(end, Int.random(in: 0..<4, using: &rng) == 0 ? Int.random(in: 2...4, using: &rng) : 1)
                    deleted += try Self.delete(end - length..<end, in: &phone, model: &model)
                    end -= length
                }
            default:
                // Deleting forwards: each deletion starts where the previous one did.
                let at = Int.random(in: 0...count, using: &rng)
                for _ in 0..<Int.random(in: 1...8, using: &rng) where at < phone.scalarCount {
                    let length = min(phone.scalarCount - at, Int.random(in: 0..<4, using: &rng) == 0 ? Int.random(in: 2...4, using: &rng) : 1)
                    deleted += try Self.delete(at..<at + length, in: &phone, model: &model)
                }
            }
            phone.endUndoGroup()
            if !typed.isEmpty || !deleted.isEmpty {
                undoSteps.append(Step(hide: typed, show: deleted))
                redoSteps.removeAll()
            }
            guard check("after the phone's step", round) else { return }

            // The other device, still without the phone's step, deletes part of the same text.
            if !deleted.isEmpty && Bool.random(using: &rng) {
                let first = keysBefore.firstIndex(of: deleted[0]) ?? 0
                let at = max(0, first + Int.random(in: -2...2, using: &rng))
                let end = min(laptop.scalarCount, at + Int.random(in: 1...6, using: &rng))
                if at < end {
                    try laptop.deleteScalars(in: at..<end)
                    model.set(Array(keysBefore[at..<end]), visible: false)
                    try phone.merge(laptop)
                    guard check("after the laptop's concurrent deletion", round) else { return }
                }
            }

            // Undo and redo a few times.
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let redo = Int.random(in: 0..<3, using: &rng) == 0
                let old = phone.string
                let patch = redo ? try phone.redo() : try phone.undo()
                // The model skips steps that change nothing, as the note does.
                var performed = false
                while let step = redo ? redoSteps.popLast() : undoSteps.popLast() {
                    if let inverse = Self.perform(step, on: &model) {
                        if redo { undoSteps.append(inverse) } else { redoSteps.append(inverse) }
                        performed = true
                        break
                    }
                }
                #expect((patch != nil) == performed, "seed \(seed) round \(round): \(redo ? "redo" : "undo") \(patch == nil ? "did nothing" : "did something")")
                if let patch {
                    #expect(TextPatchReplay.check(patch, from: old, to: phone.string), "seed \(seed) round \(round)")
                }
                guard check(redo ? "after redo" : "after undo", round) else { return }
            }
        }
        try laptop.merge(phone)
        try phone.merge(laptop)
        #expect(laptop.string == phone.string)
    }
}
