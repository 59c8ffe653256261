import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// Concurrent typing at the same place must never interleave (FugueMax / YjsMod).
@Suite struct NoteTextInterleavingTests {
    func typeForward(_ word: String, into note: inout NoteText, at start: Int) throws {
        for (i, ch) in word.unicodeScalars.enumerated() { try note.insert(String(ch), atScalarOffset: start + i) }
    }

    func typeBackward(_ word: String, into note: inout NoteText, at start: Int) throws {
        for ch in word.unicodeScalars.reversed() { try note.insert(String(ch), atScalarOffset: start) }
    }

    func mergeAll(_ notes: [NoteText], order: [Int]) throws -> NoteText {
        var result = notes[order[0]]
        for i in order.dropFirst() { try result.merge(notes[i]) }
        return result
    }

    @Test(arguments: [false, true])
    func twoReplicasTypingAtTheSameSpot(backward: Bool) throws {
        let base = try NoteText("<>", replica: .test(100))
        var a = base.forked(as: .test(1))
        var b = base.forked(as: .test(2))
        if backward {
            try typeBackward("hello", into: &a, at: 1)
            try typeBackward("world", into: &b, at: 1)
        } else {
            try typeForward("hello", into: &a, at: 1)
            try typeForward("world", into: &b, at: 1)
        }
        let ab = try a.merging(b).string
        let ba = try b.merging(a).string
        #expect(ab == ba)
        #expect(ab == "<helloworld>" || ab == "<worldhello>")
    }

    @Test(arguments: [0, 1, 2, 3] as [Int])
    func threeReplicasMixingDirections(pattern: Int) throws {
        let base = try NoteText("[]", replica: .test(100))
        var notes = [base.forked(as: .test(3)), base.forked(as: .test(1)), base.forked(as: .test(2))]
        let words = ["alpha", "bravo", "charlie"]
        for i in 0..<3 {
            if (pattern >> (i % 2)) & 1 == 1 { try typeBackward(words[i], into: &notes[i], at: 1) }
            else { try typeForward(words[i], into: &notes[i], at: 1) }
        }
        var results = Set<String>()
        for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2], [1, 2, 0]] { results.insert(try mergeAll(notes, order: order).string) }
        #expect(results.count == 1)
        let merged = try #require(results.first)
        let inner = String(merged.dropFirst().dropLast())
        let permutations = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]].map { $0.map { words[$0] }.joined() }
        #expect(permutations.contains(inner), "interleaved: \(merged)")
    }

    @Test func concurrentInsertsAfterADeletedCharacter() throws {
        let base = try NoteText("abc", replica: .test(100))
        var a = base.forked(as: .test(1))
        var b = base.forked(as: .test(2))
        try a.deleteScalars(in: 1..<2)
        try a.insert("XY", atScalarOffset: 1)
        try b.insert("12", atScalarOffset: 2)
        let ab = try a.merging(b)
        #expect(try ab.string == b.merging(a).string)
        #expect(ab.string == "aXY12c" || ab.string == "a12XYc")
    }
}
