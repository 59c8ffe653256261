import Testing
@testable import CRDTNote
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// `scalarPosition(ofUTF16:after:atUTF16:)` (the far end of a mark's range, stepped to from its
/// near end) against the tree search it replaces and against the scalar index counted over the
/// note's string: notes of many short runs with tombstones between, multi-byte characters and
/// surrogate pairs, over several leaves; every step limit, so the fallback to the search is
/// taken too.
@Suite struct ScalarPositionSteppingTests {
    @Test(arguments: Array(1...12) as [UInt64])
    func steppingFindsWhatTheSearchFinds(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let note = try NoteText.randomPieces(["a", "bc", "é", "😀", "\n", "xyz", "ü😀"], edits: 200...700, maximumDeletion: 3, &rng)
        let sequence = note.index
        // The oracle: UTF-16 offset to scalar index from the string, nil inside a pair.
        var scalarAt: [Int?] = []
        for (index, scalar) in note.string.unicodeScalars.enumerated() {
            scalarAt.append(index)
            if scalar.utf16.count == 2 { scalarAt.append(nil) }
        }
        #expect(scalarAt.count == sequence.utf16Count)
        for _ in 0..<300 {
            let low = Int.random(in: 0..<scalarAt.count, using: &rng)
            guard let from = sequence.scalarPosition(ofUTF16: low) else {
                #expect(scalarAt[low] == nil, "seed \(seed): \(low) found inside a pair")
                continue
            }
            let high = Int.random(in: low..<min(scalarAt.count, low + 60), using: &rng)
            let limit = [0, 1, 3, 32][Int.random(in: 0..<4, using: &rng)]
            let stepped = sequence.scalarPosition(ofUTF16: high, after: from, atUTF16: low, maximumSteps: limit)
            let searched = sequence.scalarPosition(ofUTF16: high)
            #expect(stepped?.scalar == scalarAt[high], "seed \(seed): \(low) to \(high), limit \(limit)")
            #expect(stepped?.scalar == searched?.scalar && stepped?.position == searched?.position,
                    "seed \(seed): \(low) to \(high), limit \(limit): \(String(describing: stepped)) vs \(String(describing: searched))")
            if let stepped, let scalar = scalarAt[high] {
                #expect(sequence.position(ofScalar: scalar) == stepped.position, "seed \(seed): \(low) to \(high)")
            }
        }
    }
}
