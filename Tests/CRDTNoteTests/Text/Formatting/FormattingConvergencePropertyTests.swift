import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// Seeded property test: 2–5 devices make random edits, marks, unmarks and paragraph changes,
/// and sync text and formatting (together or apart) in random orders with duplicates. All
/// converge, and every character's attributes equal those of `FormattingOracle`.
@Suite struct FormattingConvergencePropertyTests {
    static let kinds: [(MarkKind, [String])] = [
        (.bold, [MarkKind.on]), (.italic, [MarkKind.on]), (.underline, [MarkKind.on]), (.code, [MarkKind.on]),
        (.link, ["https://a.example", "https://b.example"]), (.highlight, ["yellow", "#ff0000"]),
        // A kind no release knows, growing at both ends: resolution reads only its anchors.
        (MarkKind(name: "x-comment", expansion: MarkExpansion(growsAtStart: true, growsAtEnd: true)), ["c1", "c2"]),
    ]
    static let attributes: [ParagraphAttribute] = [
        .heading(0), .heading(1), .heading(6), .list(.bullet), .list(.check), .list(.none),
        .checked(true), .checked(false), .quote(true), .codeBlock(true), .codeBlock(false),
    ]

    @Test(arguments: Array(1...40) as [UInt64])
    func devicesConvergeOnTheOraclesAttributes(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let base = try NoteText("Hello\nworld", replica: .test(99))
        // Clocks stuck in one millisecond: equal stamps on different devices are common, so the
        // replica-id tie-break (unsigned: the ids below use all 64 bits) decides often.
        let time = ManualPhysicalClock(milliseconds: 1_000)
        var devices = (0..<Int.random(in: 2...5, using: &rng)).map { (k: Int) in
            FormattingDevice(base.forked(as: ReplicaID(rawValue: UInt64(k + 1) &* 0x9E37_79B9_7F4A_7C15),
                                         clock: HybridLogicalClock(physicalClock: time.clock)))
        }
        for _ in 0..<Int.random(in: 80...200, using: &rng) {
            let i = Int.random(in: 0..<devices.count, using: &rng)
            try step(&devices, i, &rng)
        }
        var order = Array(devices.indices)
        order.shuffle(using: &rng)
        var all = devices[order[0]]
        for i in order + [order[0]] { try all.merge(devices[i]) }
        let expected = try FormattingOracle(all.note, versions: all.versions).characters(all.formatting)
        for i in devices.indices {
            try devices[i].merge(all)
            #expect(devices[i].note.string == all.note.string)
            #expect(devices[i].formatting == all.formatting)
            let runs = try devices[i].formatting.attributes(of: devices[i].note)
            let characters = runs.flatMap { run in Array(repeating: (run.marks, run.paragraph), count: run.scalars.count) }
            #expect(runs.map(\.scalars.count).reduce(0, +) == devices[i].note.scalarCount)
            #expect(characters.count == expected.count)
            for (k, (got, want)) in zip(characters, expected).enumerated() where got.0 != want.marks || got.1 != want.paragraph {
                Issue.record("seed \(seed), device \(i), character \(k): \(got) but the oracle says \(want)")
                break
            }
        }
    }

    /// One random action of device `i`.
    func step(_ devices: inout [FormattingDevice], _ i: Int, _ rng: inout SplitMix64) throws {
        let count = devices[i].note.scalarCount
        let lo = Int.random(in: 0...count, using: &rng)
        let range = lo..<min(count, lo + Int.random(in: 0...8, using: &rng))
        switch Int.random(in: 0..<16, using: &rng) {
        case 0..<6:
            // Often at either end, where devices type concurrently at one gap; sometimes typed
            // with a mark on (the typed text marked right away).
            let at = [0, count, lo][Int.random(in: 0..<3, using: &rng)]
            let text = RandomText.make(&rng)
            try devices[i].note.insert(text, atScalarOffset: at)
            if Bool.random(using: &rng) {
                let (kind, values) = Self.kinds[Int.random(in: 0..<Self.kinds.count, using: &rng)]
                try devices[i].mark(kind, at..<at + text.unicodeScalars.count, value: values[0])
            }
        case 6:
            try devices[i].note.deleteScalars(in: range)
        case 7..<10:
            let (kind, values) = Self.kinds[Int.random(in: 0..<Self.kinds.count, using: &rng)]
            let value = Int.random(in: 0..<3, using: &rng) == 0 ? nil : values[Int.random(in: 0..<values.count, using: &rng)]
            try devices[i].mark(kind, range, value: value)
        case 10:
            try devices[i].setParagraph(Self.attributes[Int.random(in: 0..<Self.attributes.count, using: &rng)], range)
        case 11:
            try devices[i].splitParagraph(at: lo)
        case 12:
            // Formatting alone, possibly ahead of the text it names (it formats nothing until then).
            let j = Int.random(in: 0..<devices.count, using: &rng)
            devices[i].mergeFormatting(devices[j])
        case 13:
            let j = Int.random(in: 0..<devices.count, using: &rng)
            try devices[i].note.merge(devices[j].note)
        default:
            let j = Int.random(in: 0..<devices.count, using: &rng)
            try devices[i].merge(devices[j])
            if Bool.random(using: &rng) { try devices[i].merge(devices[j]) }
        }
    }
}
