import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// What the library formatting tests keep beside a library, apart from its code: every mark
/// operation with its author's version vector when it was made (rule 1 of `FormattingOracle`),
/// and random formatting commands.
struct LibraryFormattingModel {
    /// Every mark operation made so far, with its author's version when it was made.
    var versions: [MarkOperation: VersionVector] = [:]

    static let marks: [TextMark] = [.bold, .italic, .underline, .strikethrough, .code, .link("https://a.example"),
                                    .link("https://b.example"), .highlight("yellow")]
    static let paragraphs: [ParagraphAttribute] = [.heading(0), .heading(2), .list(.bullet), .list(.check), .list(.none),
                                                   .checked(true), .quote(true), .quote(false), .codeBlock(true)]

    /// Edits note `name` of `library` with `body`, noting the mark operations it made.
    mutating func edit(_ library: NoteLibrary, _ name: String, _ body: (inout NoteText) throws -> Void) throws {
        var made: [MarkOperation: VersionVector] = [:]
        try library.edit(name) { (note: inout NoteText) throws in
            let before = note.formatting.marks
            try body(&note)
            for operation in note.formatting.marks where !before.contains(operation) { made[operation] = note.version }
        }
        versions.merge(made) { mine, _ in mine }
    }

    /// One random formatting command on `note` (a mark, an unmark, a paragraph attribute, or an
    /// undo, which may undo formatting), over a random UTF-16 range of its text.
    static func format(_ note: inout NoteText, _ rng: inout SplitMix64) throws {
        note.undoLimit = 20
        let range = randomUTF16Range(note.string, &rng)
        switch rng.next() % 8 {
        case 0..<4: try note.setMark(marks[Int(rng.next() % UInt64(marks.count))], utf16Range: range)
        case 4: try note.removeMark(TextMarkKind.allCases[Int(rng.next() % UInt64(TextMarkKind.allCases.count))], utf16Range: range)
        case 5, 6: try note.setParagraphAttribute(paragraphs[Int(rng.next() % UInt64(paragraphs.count))], utf16Range: range)
        default: try note.undo()
        }
    }

    /// A random range of whole scalars of `text`, in UTF-16 offsets.
    static func randomUTF16Range(_ text: String, _ rng: inout SplitMix64) -> Range<Int> {
        var offsets = [0]
        for scalar in text.unicodeScalars { offsets.append(offsets[offsets.count - 1] + scalar.utf16.count) }
        let lo = Int(rng.next() % UInt64(offsets.count))
        let hi = min(offsets.count - 1, lo + Int(rng.next() % 12))
        return offsets[lo]..<offsets[hi]
    }

    /// Per visible character of `note`: its marks and paragraph attributes, as the library's
    /// note resolves them.
    static func characters(_ note: NoteText) throws -> [Attributes] {
        try note.formatting.attributes(of: note).flatMap { run in Array(repeating: Attributes(marks: run.marks, paragraph: run.paragraph), count: run.scalars.count) }
    }

    /// Per visible character of `note`: its attributes as the independent model computes them.
    func oracle(_ note: NoteText) throws -> [Attributes] {
        try FormattingOracle(note, versions: versions).characters(note.formatting).map { Attributes(marks: $0.marks, paragraph: $0.paragraph) }
    }

    /// Whether every element `note`'s formatting names is an element of the note (no operation
    /// points at text the note lost).
    static func namesOnlyItsElements(_ note: NoteText) throws -> Bool {
        let ids = Set(try note.elementsInOrder().map(\.id))
        return note.formatting.namedElements().allSatisfy(ids.contains)
    }

    struct Attributes: Hashable, CustomStringConvertible {
        var marks: [String: String]
        var paragraph: ParagraphAttributes
        var description: String { "\(marks.sorted { $0.key < $1.key })\(paragraph.nonDefault)" }
    }
}
