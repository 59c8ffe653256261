import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Deleted marked text must not lend its marks to new text (automerge issue 604, Peritext
/// issue 32): Docs/FORMAT.md §10.4.
@Suite struct Issue604Tests {
    /// Automerge's reproduction: two marks, their whole ranges deleted, text typed before and
    /// after what is left. No mark may appear.
    @Test func textTypedWhereAWhollyDeletedMarkWasInheritsNothing() throws {
        var device = FormattingDevice(try NoteText("hello world", replica: .test(1)))
        try device.mark(.bold, 2..<8)
        try device.mark(.link, 3..<6, value: "https://example.com")
        try device.note.deleteScalars(in: 1..<11)
        try device.note.insert("a", atScalarOffset: 0)
        try device.note.insert("a", atScalarOffset: 2)
        #expect(device.note.string == "aha")
        #expect(try device.spans() == [MarkSpan("aha")])
    }

    /// The same after syncing: another device deletes the bold text and types again in its place.
    @Test func retypedOnAnotherDeviceAfterTheDeletionInheritsNothing() throws {
        for (first, second) in [(1, 2), (2, 1)] as [(UInt64, UInt64)] {
            var (a, b) = try devicePair("ab cd ef", first, second)
            try a.mark(.bold, 3..<5)
            try b.merge(a)
            try b.note.deleteScalars(in: 3..<5)
            try b.note.insert("XY", atScalarOffset: 3)
            try expectBothOrders(a, b, show: [MarkSpan("ab XY ef")])
        }
    }

    /// Text typed concurrently at the gap where the marked text was typed, by a device that never
    /// saw it, lands before or after it by replica id (§6). After it, it lies inside the bold's
    /// anchors, but it was not typed after a character of the range: it joins no mark.
    @Test func concurrentTextAtTheSameGapJoinsNoMarkWhateverTheTieBreak() throws {
        for (first, second) in [(1, 2), (2, 1)] as [(UInt64, UInt64)] {
            var (a, b) = try devicePair("abef", first, second)
            try a.note.insert("cd", atScalarOffset: 2)
            try a.mark(.bold, 2..<4)
            try b.note.insert("X", atScalarOffset: 2)
            let expected = first < second ? [MarkSpan("ab"), MarkSpan("cd", bold), MarkSpan("Xef")]
                                          : [MarkSpan("abX"), MarkSpan("cd", bold), MarkSpan("ef")]
            try expectBothOrders(a, b, show: expected)
        }
    }

    /// Text typed after a character of the range by a device that still saw it joins the bold,
    /// even though the range was deleted meanwhile elsewhere: it was typed at the bold's end.
    @Test func textTypedAtTheEndBeforeTheDeletionWasSeenStillJoins() throws {
        var (a, b) = try devicePair("ab cd ef")
        try a.mark(.bold, 3..<5)
        try b.merge(a)
        try a.note.deleteScalars(in: 3..<5)
        try b.note.insert("X", atScalarOffset: 5)
        try expectBothOrders(a, b, show: [MarkSpan("ab "), MarkSpan("X", bold), MarkSpan(" ef")])
    }

    /// Text retyped where a wholly deleted bold range was can land *inside* its deleted core: the
    /// range's first characters are siblings of a later one ("ab" typed before "c", both after
    /// "Z"), so the §1 local right origin of the retyped text is "c" and the §6 rule puts it
    /// before "c". The operation did not see it, so it is judged by the attach rules: its left
    /// origin "Z" lies outside, and it stays plain (FORMAT.md §10.4).
    @Test func textRetypedInsideADeletedCoreInheritsNothing() throws {
        for replica in [1, 2, 200] as [UInt64] {
            var device = FormattingDevice(try NoteText("Zcd", replica: .test(100)).forked(as: .test(replica)))
            try device.note.insert("ab", atScalarOffset: 1)
            try device.mark(.bold, 1..<4)
            try device.note.deleteScalars(in: 1..<4)
            try device.note.insert("X", atScalarOffset: 1)
            #expect(device.note.string == "ZXd")
            #expect(try device.spans() == [MarkSpan("ZXd")], "replica \(replica)")
            // The premise: "X" lies inside the deleted core, between "b" and "c".
            let order = try device.note.elementsInOrder().map { $0.scalar ?? "-" }
            #expect(String(String.UnicodeScalarView(order)) == "Z--X-d")
        }
    }
}
