import Testing
@testable import CRDTNote
@testable import CRDTNoteToolSupport

/// `OperationSet` (the formatting's marks and paragraph settings) against the standard
/// library's `Set` as the oracle: random operations drawn from a small pool, so duplicates are
/// frequent; many sharing one stamp and author but differing elsewhere (what a hostile or
/// buggy writer can send), so hashes of the key fields collide; sets built in different orders
/// and through unions.
@Suite struct OperationSetTests {
    /// A mark from a pool of `pool` shapes: few stamps and authors, so the key fields repeat.
    static func mark(_ rng: inout SplitMix64, pool: Int) -> MarkOperation {
        let n = UInt32(Int.random(in: 0..<pool, using: &rng))
        let first = ElementID(replica: ReplicaID(rawValue: UInt64(n % 3 + 1)), seq: n / 3)
        let last = ElementID(replica: first.replica, seq: first.seq + n % 5)
        return MarkOperation(name: n % 2 == 0 ? "bold" : "link", value: n % 2 == 0 ? nil : "https://e.example/\(n % 4)",
                             start: .before(first), end: n % 3 == 0 ? .documentEnd : .after(last), first: first, last: last,
                             core: .one(first.replica, n), stamp: HLCTimestamp(rawValue: UInt64(n % 7)),
                             replica: ReplicaID(rawValue: UInt64(n % 2 + 1)))
    }

    @Test(arguments: Array(1...24) as [UInt64])
    func holdsWhatASetHolds(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let pool = [8, 60, 700, 3000][Int(seed % 4)]
        var subject = OperationSet<MarkOperation>()
        var oracle = Set<MarkOperation>()
        for step in 0..<Int.random(in: 1...2500, using: &rng) {
            let operation = Self.mark(&rng, pool: pool)
            #expect(subject.insert(operation) == oracle.insert(operation).inserted, "seed \(seed), step \(step)")
            if step % 97 == 0 {
                let probe = Self.mark(&rng, pool: pool)
                #expect(subject.contains(probe) == oracle.contains(probe), "seed \(seed), step \(step)")
            }
        }
        #expect(subject.count == oracle.count)
        #expect(Set(subject) == oracle, "seed \(seed): the elements")
        #expect(subject.allSatisfy { subject.contains($0) })
        // The same elements in another order, and through unions of parts with overlaps: equal,
        // with equal hashes.
        var shuffled = Array(oracle)
        shuffled.shuffle(using: &rng)
        let reordered = OperationSet(shuffled)
        #expect(reordered == subject && reordered.hashValue == subject.hashValue, "seed \(seed)")
        var united = OperationSet(shuffled.prefix(shuffled.count * 2 / 3))
        united.formUnion(shuffled.suffix(shuffled.count * 2 / 3))
        united.formUnion(subject)
        #expect(united == subject && united.count == oracle.count, "seed \(seed)")
        // One element fewer, or one replaced: unequal.
        if let dropped = shuffled.popLast() {
            let fewer = OperationSet(shuffled)
            #expect(fewer != subject)
            var other = fewer
            var replacement = dropped
            replacement.stamp = HLCTimestamp(rawValue: 1000)
            other.insert(replacement)
            #expect(other.count == subject.count && other != subject, "seed \(seed)")
        }
    }

    /// A device formatting as it goes: operations stamped later than any held are appended
    /// without a lookup and entered into the table in batches. Mixed with operations sent
    /// again (refused), older ones received, and ties on the stamp with other authors, and
    /// probed while some are still outside the table.
    @Test(arguments: Array(1...12) as [UInt64])
    func laterOperationsAddedWithoutALookupAreFound(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var subject = OperationSet<MarkOperation>()
        var oracle = Set<MarkOperation>()
        var made: [MarkOperation] = []
        var stamp: UInt64 = 1_000
        func fresh(stamp: UInt64, _ rng: inout SplitMix64) -> MarkOperation {
            let seq = UInt32(Int.random(in: 0..<400, using: &rng))
            let first = ElementID(replica: ReplicaID(rawValue: 1), seq: seq)
            let last = ElementID(replica: first.replica, seq: seq + UInt32(Int.random(in: 0..<9, using: &rng)))
            return MarkOperation(name: "bold", value: nil, start: .before(first), end: .after(last), first: first, last: last,
                                 core: .one(first.replica, last.seq + 1), stamp: HLCTimestamp(rawValue: stamp),
                                 replica: ReplicaID(rawValue: UInt64(Int.random(in: 1...3, using: &rng))))
        }
        for step in 0..<3_000 {
            let operation: MarkOperation
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<6:
                // Later, or the same stamp again (another author, or another range).
                stamp += UInt64(Int.random(in: 0...2, using: &rng))
                operation = fresh(stamp: stamp, &rng)
            case 6...7 where !made.isEmpty:
                operation = made[Int.random(in: 0..<made.count, using: &rng)]
            default:
                operation = fresh(stamp: UInt64(Int.random(in: 0..<1_000, using: &rng)), &rng)
            }
            made.append(operation)
            #expect(subject.insert(operation) == oracle.insert(operation).inserted, "seed \(seed), step \(step)")
            if Int.random(in: 0..<7, using: &rng) == 0 {
                let probe = Bool.random(using: &rng) ? made[Int.random(in: 0..<made.count, using: &rng)]
                    : fresh(stamp: stamp + UInt64(Int.random(in: 0...1, using: &rng)), &rng)
                #expect(subject.contains(probe) == oracle.contains(probe), "seed \(seed), step \(step)")
            }
            if Int.random(in: 0..<250, using: &rng) == 0 {
                var shuffled = Array(oracle)
                shuffled.shuffle(using: &rng)
                let reordered = OperationSet(shuffled)
                #expect(reordered == subject && subject == reordered && reordered.hashValue == subject.hashValue, "seed \(seed), step \(step)")
            }
        }
        #expect(subject.count == oracle.count && Set(subject) == oracle, "seed \(seed)")
    }

    @Test func manyOperationsSharingOneStampAndAuthorAreAllKept() {
        // A writer that stamps 50,000 different marks alike: all kept, each found (through its
        // own hash: the element fields are mixed in, so they do not all probe one chain).
        var set = OperationSet<MarkOperation>()
        for n in 0..<50_000 as Range<UInt32> {
            let id = ElementID(replica: ReplicaID(rawValue: 1), seq: n)
            set.insert(MarkOperation(name: "bold", value: nil, start: .before(id), end: .after(id), first: id, last: id,
                                     core: .one(id.replica, n + 1), stamp: HLCTimestamp(rawValue: 5), replica: ReplicaID(rawValue: 2)))
        }
        #expect(set.count == 50_000)
        let id = ElementID(replica: ReplicaID(rawValue: 1), seq: 49_999)
        #expect(set.contains(MarkOperation(name: "bold", value: nil, start: .before(id), end: .after(id), first: id, last: id,
                                           core: .one(id.replica, 50_000), stamp: HLCTimestamp(rawValue: 5), replica: ReplicaID(rawValue: 2))))
    }
}
