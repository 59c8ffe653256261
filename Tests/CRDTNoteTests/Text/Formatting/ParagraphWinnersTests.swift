import Testing
@testable import CRDTNote
@testable import CRDTNoteToolSupport

/// `ParagraphWinners` (the formatting's per-paragraph index) against a `Dictionary` of lists
/// as the oracle: random keys (the document start and newlines of a few replicas), random
/// updates of their lists, lookups of keys held and not, and two indexes built in different
/// orders compared.
@Suite struct ParagraphWinnersTests {
    static func key(_ rng: inout SplitMix64, pool: Int) -> ParagraphKey {
        let n = Int.random(in: 0...pool, using: &rng)
        if n == 0 { return .documentStart }
        return .newline(ElementID(replica: ReplicaID(rawValue: UInt64(n % 3 + 1)), seq: UInt32(n / 3)))
    }

    static func operation(_ key: ParagraphKey, _ rng: inout SplitMix64) -> ParagraphOperation {
        ParagraphOperation(key: key, attribute: .heading(Int.random(in: 0...6, using: &rng)),
                           stamp: HLCTimestamp(rawValue: UInt64(Int.random(in: 0..<50, using: &rng))), replica: ReplicaID(rawValue: 1))
    }

    @Test(arguments: Array(1...16) as [UInt64])
    func holdsWhatADictionaryHolds(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let pool = [4, 40, 400, 4000][Int(seed % 4)]
        var subject = ParagraphWinners()
        var oracle: [ParagraphKey: [ParagraphOperation]] = [:]
        var order: [ParagraphKey] = []
        for step in 0..<Int.random(in: 1...3000, using: &rng) {
            let key = Self.key(&rng, pool: pool)
            let added = Self.operation(key, &rng)
            let replaceFirst = Bool.random(using: &rng)
            let change: (inout [ParagraphOperation]) -> Void = { list in
                if replaceFirst, !list.isEmpty { list[0] = added } else { list.append(added) }
            }
            if oracle[key] == nil { order.append(key) }
            change(&oracle[key, default: []])
            subject.updateWinners(of: key, change)
            let probe = Self.key(&rng, pool: pool * 2)
            #expect(subject[probe] == oracle[probe], "seed \(seed), step \(step)")
        }
        #expect(subject.keys == order, "seed \(seed): keys in the order they came")
        #expect(subject.mapValues { $0 } == oracle, "seed \(seed)")
        // The same entries put in another order: equal, with equal hashes; one list changed: unequal.
        var reordered = ParagraphWinners()
        for key in order.shuffled(using: &rng) {
            let list = oracle[key] ?? []
            reordered.updateWinners(of: key) { $0 = list }
        }
        #expect(reordered == subject && reordered.hashValue == subject.hashValue, "seed \(seed)")
        if let key = order.first {
            reordered.updateWinners(of: key) { $0.append(Self.operation(key, &rng)) }
            #expect(reordered != subject, "seed \(seed)")
        }
    }
}
