import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// The patches `merge` and `apply` return, checked the way a text view uses them: applied in
/// order to the previous text (by UTF-16 ranges on an array of UTF-16 units, as NSMutableString
/// does on Apple platforms, and separately by scalar ranges on an array of scalars), they must
/// give the new text exactly. (Not through NSMutableString itself: swift-corelibs-foundation's
/// rounds UTF-16 offsets to character boundaries, putting text inserted before a combining mark
/// after the letter it belongs to.)
@Suite struct TextPatchPropertyTests {
    @Test(arguments: Array(1...14) as [UInt64])
    func patchesTurnTheOldTextIntoTheNew(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let count = Int.random(in: 2...6, using: &rng)
        var notes = (0..<count).map { NoteText(replica: .test(UInt64($0) + 1)) }
        var nonEmptyPatches = 0
        for step in 0..<Int.random(in: 150...300, using: &rng) {
            let i = Int.random(in: 0..<count, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                try notes[i].insert(RandomText.make(&rng), atScalarOffset: Int.random(in: 0...notes[i].scalarCount, using: &rng))
            case 4..<6 where notes[i].scalarCount > 0:
                let lo = Int.random(in: 0..<notes[i].scalarCount, using: &rng)
                try notes[i].replaceScalars(in: lo..<min(notes[i].scalarCount, lo + Int.random(in: 1...8, using: &rng)),
                                            with: Bool.random(using: &rng) ? "" : RandomText.make(&rng))
            case 6..<8:
                let j = Int.random(in: 0..<count, using: &rng)
                let before = notes[i].string
                let delta = notes[j].changes(since: notes[i].version)
                let patch = try notes[i].apply(delta)
                check(patch, from: before, to: notes[i].string, "step \(step): apply \(j) into \(i)")
                if !patch.isEmpty { nonEmptyPatches += 1 }
                let again = try notes[i].apply(delta)
                #expect(again.isEmpty, "step \(step): applying the same changes twice changes nothing visible")
            default:
                let j = Int.random(in: 0..<count, using: &rng)
                let before = notes[i].string
                let patch = try notes[i].merge(notes[j])
                check(patch, from: before, to: notes[i].string, "step \(step): merge \(j) into \(i)")
                if !patch.isEmpty { nonEmptyPatches += 1 }
                #expect(try notes[i].merge(notes[j]).isEmpty, "step \(step): a repeated merge changes nothing visible")
            }
        }
        #expect(nonEmptyPatches > 5, "the run must exercise real patches")
        for i in 0..<count { #expect(notes[i].invariantViolations == []) }
    }

    @Test func concurrentEditsAtBothEndsGiveTwoReplacements() throws {
        let base = try NoteText("hello world", replica: .test(1))
        var a = base.forked(as: .test(2))
        var b = base.forked(as: .test(3))
        try b.insert("👋 ", atScalarOffset: 0)
        try b.deleteScalars(in: 8..<13)               // "👋 hello " + "world" deleted
        try b.insert("there", atScalarOffset: 8)
        let patch = try a.merge(b)
        #expect(a.string == "👋 hello there")
        #expect(patch.replacements == [
            TextReplacement(utf16Range: 0..<0, scalarRange: 0..<0, text: "👋 "),
            TextReplacement(utf16Range: 9..<14, scalarRange: 8..<13, text: "there"),
        ])
    }

    @Test func mergingOnlyKnownDeletionsGivesAnEmptyPatch() throws {
        var a = try NoteText("abcdef", replica: .test(1))
        var b = a.forked(as: .test(2))
        try a.deleteScalars(in: 1..<3)
        try b.deleteScalars(in: 1..<3)
        #expect(try a.merge(b).isEmpty)
        #expect(a.string == "adef")
    }

    private func check(_ patch: TextPatch, from old: String, to new: String, _ context: String) {
        var units = Array(old.utf16)
        var scalars = Array(old.unicodeScalars)
        for r in patch.replacements {
            guard r.utf16Range.upperBound <= units.count, r.scalarRange.upperBound <= scalars.count else {
                Issue.record("\(context): replacement \(r) is out of bounds"); return
            }
            units.replaceSubrange(r.utf16Range, with: Array(r.text.utf16))
            scalars.replaceSubrange(r.scalarRange, with: Array(r.text.unicodeScalars))
        }
        #expect(units == Array(new.utf16), "\(context) (UTF-16)")
        #expect(scalars == Array(new.unicodeScalars), "\(context) (scalars)")
        if old == new { #expect(patch.isEmpty, "\(context): nothing changed but the patch is \(patch)") }
        for (a, b) in zip(patch.replacements, patch.replacements.dropFirst()) {
            #expect(!(b.scalarRange.lowerBound == a.scalarRange.lowerBound + a.text.unicodeScalars.count), "\(context): \(a) and \(b) should be one")
        }
    }
}
