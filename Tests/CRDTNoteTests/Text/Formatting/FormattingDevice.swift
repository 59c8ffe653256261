import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// One device in the formatting tests: its copy of the note and of the note's formatting
/// operations, synced together or apart.
struct FormattingDevice {
    var note: NoteText
    var formatting = NoteFormatting()
    /// This device's version vector when each mark operation it knows was made (for the oracle).
    var versions: [MarkOperation: VersionVector] = [:]

    init(_ note: NoteText) { self.note = note }

    /// The next stamp of this device's clock (which has received every stamp merged into it).
    mutating func stamp() -> HLCTimestamp { note.clock.tick() }

    mutating func mark(_ kind: MarkKind, _ range: Range<Int>, value: String? = MarkKind.on) throws {
        let stamp = stamp()
        if let operation = try NoteFormatting.mark(kind, value, scalars: range, in: note, stamp: stamp, replica: note.replica) {
            formatting.add(operation)
            versions[operation] = note.version
        }
    }

    mutating func setParagraph(_ attribute: ParagraphAttribute, _ range: Range<Int>) throws {
        let stamp = stamp()
        formatting.add(try NoteFormatting.setParagraph(attribute, scalars: range, in: note, stamp: stamp, replica: note.replica))
    }

    /// Types a newline at `offset` and keeps the split paragraph's attributes on both halves.
    mutating func splitParagraph(at offset: Int) throws {
        try note.insert("\n", atScalarOffset: offset)
        let stamp = stamp()
        formatting.add(try formatting.splitParagraph(atNewline: offset, in: note, stamp: stamp, replica: note.replica))
    }

    /// Takes in `other`'s text and formatting.
    mutating func merge(_ other: FormattingDevice) throws {
        try note.merge(other.note)
        mergeFormatting(other)
        // Formatting stamps advance the clock too, so what is done after a merge is later.
        if let latest = (other.formatting.marks.map(\.stamp) + other.formatting.paragraphs.map(\.stamp)).max() {
            _ = note.clock.receive(latest)
        }
    }

    /// Takes in `other`'s formatting operations alone.
    mutating func mergeFormatting(_ other: FormattingDevice) {
        formatting.merge(other.formatting)
        versions.merge(other.versions) { mine, _ in mine }
    }

    /// The text cut where the marks change, with the marks of each piece.
    func spans() throws -> [MarkSpan] {
        let scalars = Array(note.string.unicodeScalars)
        var spans: [MarkSpan] = []
        for run in try formatting.attributes(of: note) {
            let text = String(String.UnicodeScalarView(scalars[run.scalars]))
            if let last = spans.last, last.marks == run.marks {
                spans[spans.count - 1].text += text
            } else {
                spans.append(MarkSpan(text, run.marks))
            }
        }
        return spans
    }

    /// The paragraph attributes of every visible character.
    func paragraphs() throws -> [ParagraphAttributes] {
        try formatting.attributes(of: note).flatMap { run in Array(repeating: run.paragraph, count: run.scalars.count) }
    }
}

/// A piece of text and the marks in force on it.
struct MarkSpan: Equatable, CustomStringConvertible {
    var text: String
    var marks: [String: String]
    init(_ text: String, _ marks: [String: String] = [:]) {
        self.text = text
        self.marks = marks
    }
    var description: String { "\(text.debugDescription)\(marks.isEmpty ? "" : "\(marks.sorted { $0.key < $1.key })")" }
}

let bold = ["bold": MarkKind.on]
let italic = ["italic": MarkKind.on]

/// Two devices holding the same text (inserted by a third), as replicas `.test(a)` and `.test(b)`.
func devicePair(_ text: String, _ a: UInt64 = 1, _ b: UInt64 = 2) throws -> (FormattingDevice, FormattingDevice) {
    let base = try NoteText(text, replica: .test(99))
    return (FormattingDevice(base.forked(as: .test(a))), FormattingDevice(base.forked(as: .test(b))))
}

/// Expects `a` merged with `b` and `b` merged with `a` to show `expected`; returns both merges.
@discardableResult
func expectBothOrders(_ a: FormattingDevice, _ b: FormattingDevice, show expected: [MarkSpan],
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> (FormattingDevice, FormattingDevice) {
    let (ab, ba) = try bothOrders(a, b)
    #expect(try ab.spans() == expected, "a merged with b", sourceLocation: sourceLocation)
    #expect(try ba.spans() == expected, "b merged with a", sourceLocation: sourceLocation)
    return (ab, ba)
}

/// Both merge orders of two devices' work: `(a merged with b, b merged with a)`.
func bothOrders(_ a: FormattingDevice, _ b: FormattingDevice) throws -> (FormattingDevice, FormattingDevice) {
    var ab = a, ba = b
    try ab.merge(b)
    try ba.merge(a)
    return (ab, ba)
}
