import Testing
@testable import CRDTNote
@testable import CRDTNoteSupport

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
        var stretches = 0
        var i = 0
        while i < slots.count {
            let found = ranges.segment(containing: UInt32(i))
            var end = i
            while end < slots.count && slots[end] == slots[i] { end += 1 }
            #expect(found.slot == slots[i] && found.end == UInt32(end), "\(label): id \(i)")
            if found.end != UInt32(end) { return }
            stretches += 1
            i = end
        }
        // Neighbouring segments never share a slot: one segment per stretch.
        #expect(ranges.segmentCount == stretches, "\(label)")
    }
}
