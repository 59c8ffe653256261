import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// Seeded property test: 2–4 devices edit, format, unformat, set paragraph attributes and undo,
/// and sync by deltas alone (``NoteText/changes(since:)``, encoded and decoded, computed against
/// the receiver's version now or earlier), delivered in random order with duplicates. Every
/// delivery leaves the receiver exactly as merging the sender's whole state would (text,
/// formatting operations, attributes), a view updated by the returned patch shows the new
/// attributes, and in the end every device equals the full-state merge of all of them.
@Suite struct FormattingDeltaPropertyTests {
    static let marks: [TextMark] = [.bold, .italic, .underline, .code, .link("https://a.example"), .highlight("yellow")]
    static let paragraphs: [ParagraphAttribute] = [.heading(0), .heading(2), .list(.bullet), .list(.check), .list(.none),
                                                   .checked(true), .quote(true), .codeBlock(true)]
    static let pieces = ["a", "bc", " ", "\n", "word ", "é", "👋"]

    /// A delta on its way: the bytes, and the sender's whole state when it was made (the oracle).
    struct Message {
        var bytes: [UInt8]
        var sender: NoteText
    }

    @Test(arguments: Array(1...30) as [UInt64])
    func deltasAloneConvergeOnTheFullMerge(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let base = try NoteText("Hello\nworld", replica: .test(99))
        // Clocks stuck in one millisecond: equal stamps on different devices are common.
        let time = ManualPhysicalClock(milliseconds: 1_000)
        var devices = (0..<Int.random(in: 2...4, using: &rng)).map { k in
            var note = base.forked(as: ReplicaID(rawValue: UInt64(k + 1) &* 0x9E37_79B9_7F4A_7C15),
                                   clock: HybridLogicalClock(physicalClock: time.clock))
            note.undoLimit = k % 2 == 0 ? 20 : 0
            return note
        }
        // Each device's versions so far (what a sender may remember of it) and its inbox.
        var pastVersions = devices.map { [$0.version] }
        var inboxes = devices.map { _ in [Message]() }
        var formattedDeltas = 0
        for _ in 0..<Int.random(in: 100...220, using: &rng) {
            let i = Int.random(in: 0..<devices.count, using: &rng)
            switch Int.random(in: 0..<12, using: &rng) {
            case 0..<6:
                try edit(&devices[i], &rng)
                pastVersions[i].append(devices[i].version)
            case 6..<9:
                // i sends j what j lacks since a version j had (now or earlier).
                let j = (i + Int.random(in: 1..<devices.count, using: &rng)) % devices.count
                let known = pastVersions[j][Int.random(in: 0..<pastVersions[j].count, using: &rng)]
                let changes = devices[i].changes(since: known)
                let bytes = changes.encoded()
                if changes.formattingOperationCount == 0 {
                    // Without formatting: written as before formatting travelled in changes.
                    #expect(bytes[6] <= 3, "seed \(seed): a changes payload without formatting declares reader \(bytes[6])")
                } else {
                    #expect(bytes[6] == 5)
                    formattedDeltas += 1
                }
                inboxes[j].append(Message(bytes: bytes, sender: devices[i]))
            default:
                // j takes a random message from its inbox; sometimes it stays there (a duplicate).
                guard !inboxes[i].isEmpty else { continue }
                let k = Int.random(in: 0..<inboxes[i].count, using: &rng)
                let message = inboxes[i][k]
                if Int.random(in: 0..<3, using: &rng) != 0 { inboxes[i].remove(at: k) }
                try deliver(message, to: &devices[i], seed: seed)
                pastVersions[i].append(devices[i].version)
            }
        }
        // The oracle: every device's whole state merged, in a random order.
        var order = Array(devices.indices)
        order.shuffle(using: &rng)
        var all = devices[order[0]].forked(as: .test(500))
        for k in order { try all.merge(devices[k]) }
        // Then deltas alone until everyone has everything: two rounds between every pair.
        for _ in 0..<2 {
            for j in devices.indices {
                for i in devices.indices where i != j {
                    let bytes = devices[i].changes(since: devices[j].version).encoded()
                    try deliver(Message(bytes: bytes, sender: devices[i]), to: &devices[j], seed: seed)
                }
            }
        }
        let expected = try all.formattedSpans()
        for (k, device) in devices.enumerated() {
            #expect(device.string == all.string, "seed \(seed), device \(k)")
            #expect(device.formatting == all.formatting, "seed \(seed), device \(k): formatting operations differ")
            #expect(try device.formattedSpans() == expected, "seed \(seed), device \(k): attributes differ")
            #expect(device.version == all.version, "seed \(seed), device \(k): \(device.version) vs \(all.version)")
            #expect(device.changes(since: all.version).formattingOperationCount == 0)
        }
        #expect(formattedDeltas > 0, "seed \(seed): no delta carried formatting")
    }

    /// Applies `message` to `receiver`: its state must equal the full merge of the sender's state
    /// as it was, and a view updated by the patch must show it.
    func deliver(_ message: Message, to receiver: inout NoteText, seed: UInt64) throws {
        let changes = try NoteChanges(encoded: message.bytes)
        let expected = try receiver.merging(message.sender)
        var view = try FormattedFakeView(receiver)
        let patch = try receiver.apply(changes)
        view.apply(patch)
        #expect(receiver.string == expected.string, "seed \(seed)")
        #expect(receiver.formatting == expected.formatting, "seed \(seed): the delta's formatting differs from the full merge's")
        #expect(try receiver.formattedSpans() == expected.formattedSpans(), "seed \(seed)")
        #expect(try view == FormattedFakeView(receiver), "seed \(seed): the patch does not give the new attributes")
    }

    /// `range` with each end moved back off the second half of a surrogate pair of `note`.
    static func avoidingSurrogates(_ range: Range<Int>, in note: NoteText) -> Range<Int> {
        let units = Array(note.string.utf16)
        func fix(_ k: Int) -> Int { k > 0 && k < units.count && UTF16.isTrailSurrogate(units[k]) ? k - 1 : k }
        let lower = fix(range.lowerBound)
        return lower..<max(lower, fix(range.upperBound))
    }

    /// One random local action.
    func edit(_ note: inout NoteText, _ rng: inout SplitMix64) throws {
        let count = note.utf16Count
        let lo = Int.random(in: 0...count, using: &rng)
        var range = lo..<min(count, lo + Int.random(in: 0...8, using: &rng))
        // Keep both ends off the middle of a surrogate pair.
        range = Self.avoidingSurrogates(range, in: note)
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<3:
            try note.replaceUTF16(in: range.lowerBound..<range.lowerBound, with: Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &rng)])
        case 3:
            try note.replaceUTF16(in: range, with: "")
        case 4..<7:
            let mark = Self.marks[Int.random(in: 0..<Self.marks.count, using: &rng)]
            if Int.random(in: 0..<3, using: &rng) == 0 {
                try note.removeMark(mark.kind, utf16Range: range)
            } else {
                try note.setMark(mark, utf16Range: range)
            }
        case 7:
            try note.setParagraphAttribute(Self.paragraphs[Int.random(in: 0..<Self.paragraphs.count, using: &rng)], utf16Range: range)
        case 8:
            try note.undo()
        default:
            try note.redo()
        }
    }
}
