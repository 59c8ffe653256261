import Testing
@testable import CRDTNote
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// `insertInPlace` against the standard `insert`: random positions (front, middle, end, empty
/// arrays), plain values and class instances (whose reference counts must come out right).
@Suite struct ArrayInsertInPlaceTests {
    final class Box: Equatable {
        let value: Int
        init(_ value: Int) { self.value = value }
        static func == (a: Box, b: Box) -> Bool { a.value == b.value }
    }

    @Test(arguments: Array(1...6) as [UInt64])
    func matchesStandardInsert(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var mine: [Int] = []
        var oracle: [Int] = []
        var boxes: [Box] = []
        var boxOracle: [Box] = []
        for step in 0..<400 {
            let index = Int.random(in: 0...oracle.count, using: &rng)
            let a = Int.random(in: 0..<1000, using: &rng)
            let b = Int.random(in: 0..<1000, using: &rng)
            if Bool.random(using: &rng) {
                mine.insertInPlace(a, at: index)
                oracle.insert(a, at: index)
                boxes.insertInPlace(Box(a), at: index)
                boxOracle.insert(Box(a), at: index)
            } else {
                mine.insertInPlace(a, b, at: index)
                oracle.insert(contentsOf: [a, b], at: index)
                boxes.insertInPlace(Box(a), Box(b), at: index)
                boxOracle.insert(contentsOf: [Box(a), Box(b)], at: index)
            }
            #expect(mine == oracle, "seed \(seed) step \(step)")
            #expect(boxes == boxOracle, "seed \(seed) step \(step)")
        }
        // Each instance sits in one place only (a wrong move would leave a copy of a neighbour).
        for box in boxes { #expect(boxes.filter { $0 === box }.count == 1) }
    }

    @Test func sharedArraysAreCopiedNotChanged() {
        let original = [1, 2, 3]
        var copy = original
        copy.insertInPlace(9, at: 1)
        copy.insertInPlace(7, 8, at: 0)
        #expect(original == [1, 2, 3])
        #expect(copy == [7, 8, 1, 9, 2, 3])
    }
}
