import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Seeded undo/redo chains interleaved with another device's edits and merges.
@Suite struct NoteTextUndoPropertyTests {
    struct ID: Hashable { var replica: ReplicaID; var seq: UInt32 }

    static func visible(_ note: NoteText, of replica: ReplicaID) -> Set<ID> {
        Set(note.visibleIDs.filter { $0.replica == replica }.map { ID(replica: $0.replica, seq: $0.seq) })
    }

    /// A random local edit inside `bounds` (scalar offsets of `note`).
    static func randomEdit(_ note: inout NoteText, in bounds: ClosedRange<Int>, _ rng: inout SplitMix64) throws {
        let lo = Int.random(in: bounds, using: &rng)
        if lo < bounds.upperBound && Bool.random(using: &rng) {
            let hi = min(bounds.upperBound, lo + Int.random(in: 1...5, using: &rng))
            try note.replaceScalars(in: lo..<hi, with: Bool.random(using: &rng) ? RandomText.make(&rng, maxPieces: 3) : "")
        } else {
            try note.insert(RandomText.make(&rng), atScalarOffset: lo)
        }
    }

    /// One device makes one-edit steps, undoes and redoes at random, while another device keeps
    /// typing at the very start and the two merge now and then: the first device's part of the
    /// text must go exactly through the history an editor would show (an independent list of
    /// texts with a pointer), and the other device's text must never change.
    @Test(arguments: Array(1...10) as [UInt64])
    func chainsFollowTheHistoryDespiteRemoteTyping(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var phone = try NoteText("start", replica: .test(1))
        var laptop = phone.forked(as: .test(2))
        // The laptop's text starts before the phone's and grows at the front.
        try laptop.insert("L", atScalarOffset: 0)
        try phone.merge(laptop)
        phone.undoLimit = 1_000
        var history = ["start"]
        var pointer = 0
        for step in 0..<150 {
            let laptopCount = Self.visible(phone, of: .test(2)).count
            let roll = Int.random(in: 0..<12, using: &rng)
            switch roll {
            case 0..<4:
                try Self.randomEdit(&phone, in: laptopCount...phone.scalarCount, &rng)
                phone.endUndoGroup()
                history.removeSubrange((pointer + 1)...)
                history.append(String(String.UnicodeScalarView(phone.string.unicodeScalars.dropFirst(laptopCount))))
                pointer += 1
            case 4..<6:
                let old = phone.string
                if let patch = try phone.undo() {
                    #expect(TextPatchReplay.check(patch, from: old, to: phone.string), "seed \(seed) step \(step): \(old.unicodeScalars.map { String($0.value, radix: 16) }) \(patch) \(phone.string.unicodeScalars.map { String($0.value, radix: 16) })")
                    pointer -= 1
                } else {
                    #expect(pointer == 0 || history[..<pointer].allSatisfy { $0 == history[pointer] })
                    pointer = 0
                }
            case 6..<8:
                let old = phone.string
                if let patch = try phone.redo() {
                    #expect(TextPatchReplay.check(patch, from: old, to: phone.string), "seed \(seed) step \(step)")
                    pointer += 1
                } else {
                    #expect(pointer == history.count - 1)
                }
            case 8..<10:
                try laptop.insert(RandomText.make(&rng), atScalarOffset: 0)
            case 10:
                let old = phone.string
                let patch = try phone.merge(laptop)
                #expect(TextPatchReplay.check(patch, from: old, to: phone.string))
            default:
                try laptop.merge(phone)
            }
            // The laptop's characters all stand first; the rest is the phone's history.
            let ids = phone.visibleIDs
            let count = ids.prefix { $0.replica == .test(2) }.count
            #expect(count == Self.visible(phone, of: .test(2)).count, "seed \(seed) step \(step): the laptop's text is not all at the start")
            let own = String(String.UnicodeScalarView(phone.string.unicodeScalars.dropFirst(count)))
            #expect(own == history[pointer], "seed \(seed) step \(step): \"\(own)\" but history says \"\(history[pointer])\"")
            #expect(phone.invariantViolations == [])
            if own != history[pointer] { return }
        }
        try laptop.merge(phone)
        try phone.merge(laptop)
        #expect(laptop.string == phone.string)
    }

    /// Both devices edit anywhere (deleting each other's text too) while one of them undoes and
    /// redoes: every patch turns the old text into the new one, undo and redo never add or remove
    /// the other device's characters, and the copies converge once they exchange everything.
    @Test(arguments: Array(1...12) as [UInt64])
    func undoNeverTouchesTheOtherDevice(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var phone = try NoteText("Lists: milk, eggs\r\n🇫🇷 e\u{301}", replica: .test(1))
        var laptop = phone.forked(as: .test(2))
        phone.undoLimit = Int.random(in: 1...8, using: &rng)
        for step in 0..<200 {
            switch Int.random(in: 0..<12, using: &rng) {
            case 0..<3:
                try Self.randomEdit(&phone, in: 0...phone.scalarCount, &rng)
                if Int.random(in: 0..<3, using: &rng) == 0 { phone.endUndoGroup() }
            case 3..<5:
                try Self.randomEdit(&laptop, in: 0...laptop.scalarCount, &rng)
            case 5..<8:
                let redo = Bool.random(using: &rng)
                let old = phone.string
                let others = Self.visible(phone, of: .test(2))
                let patch = redo ? try phone.redo() : try phone.undo()
                if let patch {
                    #expect(TextPatchReplay.check(patch, from: old, to: phone.string), "seed \(seed) step \(step)")
                } else {
                    #expect(phone.string == old)
                }
                #expect(Self.visible(phone, of: .test(2)) == others, "seed \(seed) step \(step): undo touched the other device's text")
            case 8..<10:
                let old = phone.string
                let patch = try phone.apply(laptop.changes(since: phone.version))
                #expect(TextPatchReplay.check(patch, from: old, to: phone.string))
            default:
                try laptop.merge(phone)
            }
            #expect(phone.invariantViolations == [], "seed \(seed) step \(step)")
            #expect(phone.undoHistory.undoStack.count <= phone.undoLimit && phone.undoHistory.redoStack.count <= phone.undoLimit)
        }
        try laptop.merge(phone)
        try phone.merge(laptop)
        #expect(laptop.string == phone.string)
        #expect(laptop.invariantViolations == [])
    }
}
