import Testing
@testable import CRDTNote
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// `SlotRanges` against a plain array holding every id's slot: random appends and reassignments,
/// most of them inside one segment (a run moving to another leaf), some across several.
@Suite struct SlotRangesTests {
    @Test(arguments: Array(1...10) as [UInt64])
    func matchesPlainArray(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var ranges = SlotRanges()
        var slots: [Int32] = []
        let slotCount = Int32.random(in: 2...6, using: &rng)
        for step in 0..<3_000 {
            let roll = Int.random(in: 0..<10, using: &rng)
            if slots.isEmpty || roll == 0 {
                let length = Int.random(in: 1...20, using: &rng)
                let slot = Int32.random(in: 0..<slotCount, using: &rng)
                ranges.append(length, slot: slot)
                slots += repeatElement(slot, count: length)
            } else {
                let slot = Int32.random(in: 0..<slotCount, using: &rng)
                let range: Range<Int>
                if roll < 8 {
                    // Inside the stretch of equal slots holding a random id.
                    let at = Int.random(in: 0..<slots.count, using: &rng)
                    var lo = at
                    var hi = at + 1
                    while lo > 0 && slots[lo - 1] == slots[at] { lo -= 1 }
                    while hi < slots.count && slots[hi] == slots[at] { hi += 1 }
                    let start = Int.random(in: lo..<hi, using: &rng)
                    range = start..<Int.random(in: start + 1...hi, using: &rng)
                } else {
                    let start = Int.random(in: 0..<slots.count, using: &rng)
                    range = start..<min(slots.count, start + Int.random(in: 1...60, using: &rng))
                }
                ranges.assign(UInt32(range.lowerBound)..<UInt32(range.upperBound), slot: slot)
                for i in range { slots[i] = slot }
            }
            if step % 50 == 0 || step == 2_999 { check(ranges, slots, "seed \(seed) step \(step)") }
        }
    }

    private func check(_ ranges: SlotRanges, _ slots: [Int32], _ label: String) {
        #expect(ranges.count == UInt32(slots.count), "\(label)")
        // The stretches of equal slots in the oracle, from id `from` on.
        func oracleStretches(from: Int) -> [(Int32, Range<UInt32>)] {
            var out: [(Int32, Range<UInt32>)] = []
            var i = from
            while i < slots.count {
                var end = i
                while end < slots.count && slots[end] == slots[i] { end += 1 }
                out.append((slots[i], UInt32(i)..<UInt32(end)))
                i = end
            }
            return out
        }
        func found(from: Int) -> [(Int32, Range<UInt32>)] {
            var out: [(Int32, Range<UInt32>)] = []
            ranges.forEachStretch(from: UInt32(from)) { out.append(($0, $1)) }
            return out
        }
        let all = oracleStretches(from: 0)
        #expect(found(from: 0).elementsEqual(all, by: { $0 == $1 }), "\(label)")
        for from in [slots.count / 3, slots.count - 1, slots.count] where from >= 0 {
            #expect(found(from: from).elementsEqual(oracleStretches(from: from), by: { $0 == $1 }), "\(label): from \(from)")
        }
        // Neighbouring segments never share a slot: one segment per stretch.
        #expect(ranges.segmentCount == all.count, "\(label)")
    }
}
