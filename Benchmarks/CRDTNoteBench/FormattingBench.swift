import Foundation
import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport

/// `formatting`: reading and merging a formatted note (issue 32, Docs/BENCHMARKS.md
/// "Formatting"). Notes of 100 KB and 1 MB (lines of words, 2,000 scattered one-character edits)
/// carrying one mark per 200 characters on average (random kinds, ranges of 1–40 characters, one
/// in three a removal) and a paragraph attribute on every tenth line. Per note: the time to read
/// every character's attributes (`formattedSpans()`, resolved afresh), to build an
/// `AttributedString` of a copy that has not been read yet (and, beside it, Foundation's floor
/// and the same string built by appending its runs), to read the attributes at one
/// position from a note that has been read (its attributes index is built), and to merge 100
/// formatting operations made on another copy into a note a view shows (the patch recorded), and
/// a toolbar's mark command on a note a view shows (`NoteEditorSession.toggleMark` on a random
/// selection of 1–40 characters) without undo history and with 100 steps kept.
struct FormattingResult {
    struct Case {
        var label: String
        var scalars: Int
        var operations: Int
        var spansMs: Double
        var spans: Int
        var attributedStringMs: Double
        /// Foundation's own `AttributedString(String)` of the same text, no attributes: the floor.
        var plainAttributedStringMs: Double
        /// The same attributed string built the other way, by appending its runs one by one.
        var appendedAttributedStringMs: Double
        var lookupNs: Double
        var mergeMs: Double
        /// One mark command, no undo history kept / 100 steps kept.
        var markCommandMs: Double
        var markCommandUndoMs: Double
    }

    var cases: [Case]
    var runs: Int
    var correct: Bool

    var json: JSONValue {
        .object(JSONObject(cases.map { c in
            (c.label, .object([
                "scalars": .int(c.scalars), "formatting_operations": .int(c.operations),
                "spans_ms": .double(c.spansMs), "spans": .int(c.spans), "attributed_string_ms": .double(c.attributedStringMs),
                "plain_attributed_string_ms": .double(c.plainAttributedStringMs),
                "attributed_string_by_appending_ms": .double(c.appendedAttributedStringMs),
                "attributes_at_position_ns": .double(c.lookupNs), "merge_100_operations_ms": .double(c.mergeMs),
                "mark_command_ms": .double(c.markCommandMs), "mark_command_undo_100_ms": .double(c.markCommandUndoMs),
            ]))
        } + [("runs", .int(runs)), ("correct", .bool(correct))]))
    }

    var lines: [String] {
        cases.map { c in
            "\(c.label): \(Format.count(c.scalars)) scalars, \(Format.count(c.operations)) formatting operations; "
                + "formattedSpans \(Format.ms(c.spansMs)) (\(Format.count(c.spans)) spans), AttributedString \(Format.ms(c.attributedStringMs)) "
                + "(of the plain text alone \(Format.ms(c.plainAttributedStringMs)), by appending its runs \(Format.ms(c.appendedAttributedStringMs))), "
                + "attributes at a position \(String(format: "%.0f", c.lookupNs)) ns, merging 100 operations \(Format.ms(c.mergeMs)), "
                + "a mark command \(Format.ms(c.markCommandMs)) (with 100 undo steps kept \(Format.ms(c.markCommandUndoMs)))"
        } + ["medians of \(runs) runs" + (correct ? "" : "; COPIES DIFFER AFTER THE MERGE")]
    }
}

enum FormattingBench {
    static let marks: [TextMark] = [.bold, .italic, .underline, .strikethrough, .code, .link("https://example.com/b"), .highlight("yellow")]

    static func run(runs: Int) throws -> FormattingResult {
        var correct = true
        let cases = try [("100 KB", 100_000), ("1 MB", 1_000_000)].map { label, bytes in
            try measure(label: label, bytes: bytes, runs: runs, correct: &correct)
        }
        return FormattingResult(cases: cases, runs: runs, correct: correct)
    }

    /// Adds `count` random marks (one in three a removal) to `note`.
    static func addMarks(_ count: Int, to note: inout NoteText, _ rng: inout SplitMix64) throws {
        for _ in 0..<count {
            let start = rng.below(note.utf16Count)
            let range = start..<min(note.utf16Count, start + 1 + rng.below(40))
            let mark = marks[rng.below(marks.count)]
            if rng.below(3) == 0 { try note.removeMark(mark.kind, utf16Range: range) } else { try note.setMark(mark, utf16Range: range) }
        }
    }

    static func measure(label: String, bytes: Int, runs: Int, correct: inout Bool) throws -> FormattingResult.Case {
        var rng = SplitMix64(seed: 32)
        let lines = SetTextBench.note(bytes: bytes, seed: 6)
        var note = try NoteText(lines.joined(separator: "\n"), replica: ReplicaID(rawValue: 1))
        for i in 0..<2_000 {
            let at = rng.below(note.scalarCount)
            if i % 3 == 0 { try note.deleteScalars(in: at..<at + 1) } else { try note.insert("é", atScalarOffset: at) }
        }
        try addMarks(note.scalarCount / 200, to: &note, &rng)
        var offset = 0
        for (i, line) in lines.enumerated() {
            if i % 10 == 0, offset < note.utf16Count { try note.setParagraphAttribute(.list(.bullet), utf16Range: offset..<offset) }
            offset += line.utf16.count + 1
        }
        var spansSamples: [Double] = []
        var stringSamples: [Double] = []
        var plainStringSamples: [Double] = []
        var appendedStringSamples: [Double] = []
        var lookupSamples: [Double] = []
        var mergeSamples: [Double] = []
        var commandSamples: [Double] = []
        var undoCommandSamples: [Double] = []
        var spanCount = 0
        let positions = (0..<100_000).map { _ in rng.below(note.utf16Count) }
        for _ in 0..<runs {
            // Each fork starts with an empty attributes index: every figure but the lookup
            // resolves the note afresh.
            let (ms, spans) = try Measure.time { () throws -> [FormattedSpan] in try note.forked(as: ReplicaID(rawValue: 4)).formattedSpans() }
            spansSamples.append(ms)
            spanCount = spans.count
            let cold = note.forked(as: ReplicaID(rawValue: 5))
            let (stringMs, string) = try Measure.time { () throws -> AttributedString in try AttributedString(cold) }
            stringSamples.append(stringMs)
            let text = cold.string
            let (plainMs, plain) = Measure.time { AttributedString(text) }
            plainStringSamples.append(plainMs)
            if plain.characters.count != string.characters.count { correct = false }
            // The other construction: the attributed runs appended one by one.
            let (appendedMs, appended) = Measure.time { () -> AttributedString in
                var out = AttributedString()
                for run in string.runs { out.append(string[run.range]) }
                return out
            }
            appendedStringSamples.append(appendedMs)
            if appended != string { correct = false }
            if string.characters.count != cold.string.count { correct = false }
            let (lookupMs, found) = try Measure.time { () throws -> Int in
                var bold = 0
                for k in positions where try note.attributes(atUTF16: k).mark(.bold) != nil { bold += 1 }
                return bold
            }
            lookupSamples.append(lookupMs * 1e6 / Double(positions.count))
            if found == positions.count { correct = false }
            var local = note.forked(as: ReplicaID(rawValue: 2))
            var remote = note.forked(as: ReplicaID(rawValue: 3))
            try addMarks(100, to: &remote, &rng)
            _ = try local.formattedSpans()  // a view shows it: its index is built
            let (mergeMs, _) = try Measure.time { () throws -> TextPatch in try local.merge(remote) }
            mergeSamples.append(mergeMs)
            if try local.formattedSpans() != remote.formattedSpans() { correct = false }
            commandSamples.append(try markCommandMs(note, undoLimit: 0, &rng))
            undoCommandSamples.append(try markCommandMs(note, undoLimit: 100, &rng))
        }
        return FormattingResult.Case(label: label, scalars: note.scalarCount, operations: note.scalarCount / 200 + lines.count / 10,
                                     spansMs: Timing(samples: spansSamples).median, spans: spanCount,
                                     attributedStringMs: Timing(samples: stringSamples).median,
                                     plainAttributedStringMs: Timing(samples: plainStringSamples).median,
                                     appendedAttributedStringMs: Timing(samples: appendedStringSamples).median,
                                     lookupNs: Timing(samples: lookupSamples).median,
                                     mergeMs: Timing(samples: mergeSamples).median,
                                     markCommandMs: Timing(samples: commandSamples).median,
                                     markCommandUndoMs: Timing(samples: undoCommandSamples).median)
    }

    /// The time of one toolbar mark command (select 1–40 characters, toggle bold) on a copy of
    /// `note` a view shows, keeping `undoLimit` undo steps: the median command's share of 50.
    static func markCommandMs(_ note: NoteText, undoLimit: Int, _ rng: inout SplitMix64) throws -> Double {
        var session = NoteEditorSession(note: note.forked(as: ReplicaID(rawValue: 6)), undoLimit: undoLimit)
        _ = try session.note.formattedSpans()  // a view shows it: its index is built
        let count = 50
        let ranges = (0..<count).map { _ in
            let start = rng.below(note.utf16Count)
            return start..<min(note.utf16Count, start + 1 + rng.below(40))
        }
        let (ms, _) = try Measure.time { () throws -> Int in
            for range in ranges {
                try session.userSelected(utf16Range: range)
                _ = try session.toggleMark(.bold)
            }
            return count
        }
        return ms / Double(count)
    }
}
