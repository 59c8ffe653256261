/// A note's resolved attributes as runs of visible text with one winning operation per mark
/// name (``MarkWinner``) and one paragraph, with each run's start in Unicode scalars and in
/// UTF-16 code units and its ``TextAttributes``: the attributes index. Reading the attributes
/// at a position is a binary search, O(log r) for r runs; a patch's attribute changes are a
/// walk over two run lists, O(r); new formatting operations update it where they cover
/// (`AttributeRuns+Updates.swift`). Built from the resolution (``init(resolving:in:)``)
/// and kept by ``AttributeCache`` until the note's text or formatting changes. Neighbouring
/// runs may show equal attributes (their winners differ).
struct AttributeRuns: Sendable, Equatable {
    /// Where each run starts, in scalars (ascending; the first is 0). Empty for an empty note.
    var scalarStarts: [Int] = []
    /// Where each run starts, in UTF-16 code units.
    var utf16Starts: [Int] = []
    /// Each run's attributes (what ``winners`` and its paragraph give).
    var attributes: [TextAttributes] = []
    /// Each run's winning operation per mark name.
    var winners: [[String: MarkWinner]] = []
    /// The visible text's length in scalars and in UTF-16 code units.
    private(set) var scalarCount = 0
    private(set) var utf16Count = 0

    /// The index of `sequence` with `formatting` resolved (Docs/FORMAT.md §10.4–10.5): plain
    /// text, then every mark operation weighed where it covers, in the window between its
    /// anchors, and every paragraph with settings given its attributes. O(n/(run length) + the
    /// elements between each operation's anchors + the paragraphs with settings), not a walk
    /// of every element ever inserted. (Both borrowed: an initializer would otherwise take them
    /// owned, a copy of every field of the note's index per resolution.)
    init(resolving formatting: borrowing NoteFormatting, in sequence: borrowing TextSequence) {
        self.init(plain: sequence)
        guard !formatting.isEmpty else { return }
        _ = add(formatting.marks, paragraphKeys: formatting.paragraphWinners.keys, formatting: formatting, in: sequence)
    }

    /// One run of plain body text over the whole of `sequence` (a note without formatting).
    init(plain sequence: borrowing TextSequence) {
        scalarCount = sequence.scalarCount
        utf16Count = sequence.utf16Count
        if scalarCount > 0 {
            scalarStarts = [0]
            utf16Starts = [0]
            attributes = [TextAttributes()]
            winners = [[:]]
        }
    }

    var count: Int { attributes.count }

    /// No runs yet, over a text of these lengths (filled by ``append(_:_:_:_:)``).
    init(scalarCount: Int, utf16Count: Int) {
        self.scalarCount = scalarCount
        self.utf16Count = utf16Count
    }

    /// Adds a run starting at `scalar` / `utf16`, after the others.
    mutating func append(_ scalar: Int, _ utf16: Int, _ attributes: TextAttributes, _ winners: [String: MarkWinner]) {
        scalarStarts.append(scalar)
        utf16Starts.append(utf16)
        self.attributes.append(attributes)
        self.winners.append(winners)
    }

    /// The scalars of run `i`.
    func scalars(ofRun i: Int) -> Range<Int> {
        scalarStarts[i]..<(i + 1 < count ? scalarStarts[i + 1] : scalarCount)
    }

    /// The UTF-16 code units of run `i`.
    func utf16(ofRun i: Int) -> Range<Int> {
        utf16Starts[i]..<(i + 1 < count ? utf16Starts[i + 1] : utf16Count)
    }

    /// The run holding scalar `k` (`0 <= k < scalarCount`).
    func run(atScalar k: Int) -> Int { Self.last(in: scalarStarts, notAbove: k) }

    /// The run holding UTF-16 offset `k` (`0 <= k < utf16Count`).
    func run(atUTF16 k: Int) -> Int { Self.last(in: utf16Starts, notAbove: k) }

    /// Per visible scalar, its attributes (the reference form some commands still read).
    func perScalar() -> [TextAttributes] {
        var out: [TextAttributes] = []
        out.reserveCapacity(scalarCount)
        for i in 0..<count { out += repeatElement(attributes[i], count: scalars(ofRun: i).count) }
        return out
    }

    /// The index of the last element of the ascending `starts` that is at most `k`.
    private static func last(in starts: [Int], notAbove k: Int) -> Int {
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= k { lo = mid + 1 } else { hi = mid }
        }
        return Swift.max(0, lo - 1)
    }
}

extension AttributeRuns {
    /// The attributes of visible scalar `k` (`0 <= k < scalarCount`): O(log r).
    func attributes(atScalar k: Int) -> TextAttributes {
        attributes.isEmpty ? TextAttributes() : attributes[run(atScalar: k)]
    }

    /// Whether every scalar of the non-empty `range` has attributes satisfying `predicate`
    /// (true for an empty range): one test per run the range touches.
    func allSatisfy(in range: Range<Int>, _ predicate: (TextAttributes) -> Bool) -> Bool {
        guard !range.isEmpty else { return true }
        for i in run(atScalar: range.lowerBound)...run(atScalar: range.upperBound - 1) where !predicate(attributes[i]) { return false }
        return true
    }
}

extension TextAttributes {
    /// The attributes the winning operations `winners` and a paragraph's attributes give
    /// (mark kinds this release does not know are left out).
    init(winners: [String: MarkWinner], paragraph: ParagraphAttributes) {
        self.init(marks: TextMarkKind.allCases.compactMap { kind in winners[kind.rawValue]?.value.map { TextMark(kind: kind, value: $0) } },
                  paragraph: paragraph)
    }
}
