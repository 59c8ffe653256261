import CRDTNoteToolSupport
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteSupport

/// The decoder's check that a snapshot's runs are in the order the merge rule gives them
/// (FORMAT.md §4.4 "Rule order", §6; `IntegrationOrder`), against the plain-array oracle of §6
/// (`NaiveRuleOracle`) and against merges in both orders.
@Suite("Integration order")
struct IntegrationOrderTests {
    /// The note a payload decodes to with every run checked, or the error that refuses it.
    static func load(_ payload: [UInt8]) -> Result<NoteText, any Error> {
        do {
            let note = try NoteText(snapshot: payload, replica: ReplicaID(rawValue: 0xFEED))
            try note.checkLoadedSnapshot()
            return .success(note)
        } catch {
            return .failure(error)
        }
    }

    /// The elements of `note` as the oracle sees them, in document order.
    static func oracleElements(_ note: NoteText) -> [NaiveRuleOracle.Element] {
        let sequence = note.index
        var out: [NaiveRuleOracle.Element] = []
        func id(_ ref: ItemRef) -> SpecState.ID? { ref.isNone ? nil : SpecState.ID(replica: Int(ref.replica), seq: ref.seq) }
        for slot in sequence.order {
            for run in sequence.leaves[Int(slot)] {
                for k in 0..<run.length {
                    let left = k == 0 ? run.left : ItemRef(replica: run.replica, seq: run.seq + k - 1)
                    out.append(.init(id: SpecState.ID(replica: Int(run.replica), seq: run.seq + k),
                                     replicaID: sequence.replicas[Int(run.replica)].rawValue, left: id(left), right: id(run.right)))
                }
            }
        }
        return out
    }

    /// Finding 2 of issue 29: "b" (replica 9) listed before "a" (replica 7), both without
    /// origins. The rule puts "a" first (smaller replica id), so merging this state with a copy
    /// holding only "a" would give "ba" one way and "ab" the other. Refused, in both formats,
    /// naming the second run; the same two runs in the rule's order are accepted and merge the
    /// same both ways.
    @Test func siblingsOutOfIdOrderAreRefused() throws {
        func state(_ order: [Int]) -> SpecState {
            let runs = [SpecState.Run(replica: 0, seq: 0, length: 1, deleted: false, left: nil, right: nil, text: "b"),
                        SpecState.Run(replica: 1, seq: 0, length: 1, deleted: false, left: nil, right: nil, text: "a")]
            return SpecState(replicas: [.init(id: 9, nextSeq: 1), .init(id: 7, nextSeq: 1)], runs: order.map { runs[$0] })
        }
        for payload in [state([0, 1]).formatOne(), state([0, 1]).formatTwo()] {
            guard case .failure(let error) = Self.load(payload) else {
                Issue.record("the out-of-order state was accepted")
                continue
            }
            let decoding = try #require((error as? PayloadError)?.decodingError ?? error as? BinaryDecodingError)
            #expect(decoding.code == .invalidValue)
            #expect(decoding.message.hasPrefix("run 1 is not where the merge rule places it"), "\(decoding)")
        }
        for payload in [state([1, 0]).formatOne(), state([1, 0]).formatTwo()] {
            let note = try Self.load(payload).get()
            #expect(note.string == "ab")
            var onlyA = NoteText(replica: ReplicaID(rawValue: 7), clock: HybridLogicalClock(physicalClock: .fixed(1)))
            try onlyA.insert("a", atScalarOffset: 0)
            let one = try note.merging(onlyA), other = try onlyA.merging(note)
            #expect(one.string == "ab" && other.string == "ab")
            #expect(one.elementOrder == other.elementOrder)
        }
    }

    /// States made by real edits and merges (several replicas typing, deleting and merging in a
    /// random order) are in the rule's order: each decodes with the check on, in both formats,
    /// and the oracle integrating its elements in a causal order gives its order.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func statesFromEditsAndMergesAreInRuleOrder(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9)
        for round in 0..<6 {
            let notes = FormatSamples.randomNotes(seed: rng.next(), replicas: 2 + round % 3, edits: 80 + 20 * round)
            for note in notes {
                for format in [SnapshotFormat.version1, .version2] {
                    let reloaded = try Self.load(note.encodedSnapshot(format: format)).get()
                    #expect(reloaded.elementOrder == note.elementOrder)
                }
                let elements = Self.oracleElements(note)
                let oracle = try #require(NaiveRuleOracle.order(of: elements))
                #expect(oracle.map(\.id) == elements.map(\.id), "seed \(seed) round \(round): the oracle orders the note differently")
            }
        }
    }

    /// Structure-aware fuzzing: random well-framed states (each replica's ids tiled by runs,
    /// origins random, order random, the rule's, or the rule's disturbed), written from the spec.
    /// Each is refused with a typed error, or accepted; an accepted one is in the oracle's order,
    /// and merging it with ordinary notes (a stranger's, and its own copy edited further) gives
    /// the same state in both orders.
    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func randomWellFramedStates(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var accepted = 0, refused = 0
        let started = ContinuousClock.now
        for _ in 0..<750 {
            let state = RandomStates.make(&rng)
            let payload = Bool.random(using: &rng) ? state.formatOne() : state.formatTwo()
            let note: NoteText
            switch Self.load(payload) {
            case .failure(let error):
                #expect(error is PayloadError || error is BinaryDecodingError, "untyped refusal: \(error)")
                refused += 1
                continue
            case .success(let loaded):
                note = loaded
            }
            accepted += 1
            let elements = Self.oracleElements(note)
            let oracle = try #require(NaiveRuleOracle.order(of: elements), "accepted, but its origins are not causal")
            #expect(oracle.map(\.id) == elements.map(\.id), "accepted a state out of the rule's order: \(state.runs)")
            var stranger = NoteText(replica: ReplicaID(rawValue: rng.next() | 1))
            var edited = note.forked(as: ReplicaID(rawValue: rng.next() | 1))
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                try stranger.insert(String(UnicodeScalar(UInt8.random(in: 97...122, using: &rng))),
                                    atScalarOffset: Int.random(in: 0...stranger.scalarCount, using: &rng))
                try edited.insert("#", atScalarOffset: Int.random(in: 0...edited.scalarCount, using: &rng))
                if edited.scalarCount > 1, Bool.random(using: &rng) {
                    let at = Int.random(in: 0..<edited.scalarCount, using: &rng)
                    try edited.deleteScalars(in: at..<at + 1)
                }
            }
            for other in [stranger, edited] {
                let one = try note.merging(other), two = try other.merging(note)
                #expect(one.elementOrder == two.elementOrder, "merges differ: \(state.runs)")
                #expect(one.string == two.string)
            }
        }
        #expect(accepted > 100 && refused > 100, "accepted \(accepted), refused \(refused)")
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}

/// Random well-framed snapshot states for the fuzz test above.
enum RandomStates {
    static func make(_ rng: inout SplitMix64) -> SpecState {
        let replicaCount = Int.random(in: 1...3, using: &rng)
        var replicas: [SpecState.Replica] = []
        for _ in 0..<replicaCount {
            var id = UInt64.random(in: 1...40, using: &rng)
            if Bool.random(using: &rng) { id |= 1 << 63 }
            while replicas.contains(where: { $0.id == id }) { id &+= 1 }
            replicas.append(.init(id: id, nextSeq: UInt32.random(in: 1...6, using: &rng)))
        }
        // Runs tiling each replica's ids, made in a random interleaving of the replicas. Origins:
        // mostly two neighbours in the state as it was after some earlier run (what a replica
        // that had seen that much would write), else drawn from the elements made before (causal,
        // rarely what an editor writes), or from all elements (mostly not even causal).
        let style = Int.random(in: 0..<8, using: &rng)
        var all: [SpecState.ID] = []
        for (r, replica) in replicas.enumerated() {
            for s in 0..<replica.nextSeq { all.append(SpecState.ID(replica: r, seq: s)) }
        }
        var runs: [SpecState.Run] = []
        var made: [NaiveRuleOracle.Element] = []
        var madeIDs: [SpecState.ID] = []
        var counts = [UInt32](repeating: 0, count: replicaCount)
        while let r = replicas.indices.filter({ counts[$0] < replicas[$0].nextSeq }).randomElement(using: &rng) {
            let seq = counts[r]
            let length = UInt32.random(in: 1...min(3, replicas[r].nextSeq - seq), using: &rng)
            var left: SpecState.ID?
            var right: SpecState.ID?
            if style < 6 {
                var view = NaiveRuleOracle()
                for e in made.prefix(Int.random(in: 0...made.count, using: &rng)) { view.integrate(e) }
                let gap = Int.random(in: 0...view.elements.count, using: &rng)
                left = gap > 0 ? view.elements[gap - 1].id : nil
                right = gap < view.elements.count ? view.elements[gap].id : nil
            } else {
                let pool = style == 6 ? madeIDs : all
                func origin() -> SpecState.ID? {
                    switch Int.random(in: 0..<4, using: &rng) {
                    case 0: return nil
                    case 1 where seq > 0: return SpecState.ID(replica: r, seq: seq - 1)
                    default: return pool.randomElement(using: &rng)
                    }
                }
                left = origin()
                right = origin()
            }
            runs.append(SpecState.Run(replica: r, seq: seq, length: length, deleted: Int.random(in: 0..<3, using: &rng) == 0,
                                      left: left, right: right))
            for k in 0..<length {
                let id = SpecState.ID(replica: r, seq: seq + k)
                made.append(.init(id: id, replicaID: replicas[r].id, left: k == 0 ? left : SpecState.ID(replica: r, seq: seq + k - 1),
                                  right: right))
                madeIDs.append(id)
            }
            counts[r] += length
        }
        let state = SpecState(replicas: replicas, runs: runs)
        var elements = state.elements
        let deleted = Set(runs.filter(\.deleted).flatMap { run in (0..<run.length).map { SpecState.ID(replica: run.replica, seq: run.seq + $0) } })
        let mode = Int.random(in: 0..<4, using: &rng)
        if mode == 0 {
            elements.shuffle(using: &rng)
        } else if let ordered = NaiveRuleOracle.order(of: elements) {
            elements = ordered
            if mode >= 2 && elements.count > 1 {
                let i = Int.random(in: 0..<elements.count, using: &rng)
                let moved = elements.remove(at: i)
                elements.insert(moved, at: mode == 2 ? min(i + 1, elements.count) : Int.random(in: 0...elements.count, using: &rng))
            }
        } else {
            elements.shuffle(using: &rng)
        }
        // Consecutive elements that continue each other make one run (split at random).
        var out: [SpecState.Run] = []
        for e in elements {
            let isDeleted = deleted.contains(e.id)
            if var last = out.last, last.replica == e.id.replica, last.seq + last.length == e.id.seq, last.deleted == isDeleted,
               e.left == SpecState.ID(replica: e.id.replica, seq: e.id.seq - 1), last.right == e.right, Int.random(in: 0..<4, using: &rng) > 0 {
                last.length += 1
                if !isDeleted { last.text += "x" }
                out[out.count - 1] = last
            } else {
                out.append(SpecState.Run(replica: e.id.replica, seq: e.id.seq, length: 1, deleted: isDeleted, left: e.left, right: e.right,
                                         text: isDeleted ? "" : String(UnicodeScalar(UInt8(97 + out.count % 26)))))
            }
        }
        return SpecState(replicas: replicas, runs: out)
    }
}

/// Change sets (FORMAT.md §5) carry inserts without an order: the receiver places them by the
/// rule. One whose origins no editor could have written (a right origin before the left one, or
/// inside the text typed after it) would leave a state outside the rule's order, which no reader
/// accepts; `apply` refuses it and leaves the note as it was.
@Suite("Change sets with impossible origins")
struct ImpossibleChangeSetTests {
    static func note() throws -> NoteText {
        var note = NoteText(replica: ReplicaID(rawValue: 1), clock: HybridLogicalClock(physicalClock: .fixed(1_700_000_000_000)))
        try note.insert("abc", atScalarOffset: 0)
        return note
    }

    /// One insert of "X" by replica 2 with these origins (ids of replica 1, nil: none).
    static func changes(left: UInt32?, right: UInt32?) -> NoteChanges {
        var set = ChangeSet()
        set.replicas = [ReplicaID(rawValue: 1), ReplicaID(rawValue: 2)]
        set.content = Array("X".utf8)
        set.inserts = [.init(replica: 1, seq: 0, length: 1, left: left.map { ItemRef(replica: 0, seq: $0) } ?? .none,
                             right: right.map { ItemRef(replica: 0, seq: $0) } ?? .none, byteStart: 0, byteCount: 1, utf16: 1)]
        set.latestStamps = [.zero, .zero]
        set.clockLogs = [[], []]
        return NoteChanges(changeSet: set)
    }

    @Test(arguments: [(UInt32(2), UInt32(0)), (0, 2), (1, 0), (nil, 1), (2, 1)] as [(UInt32?, UInt32?)])
    func impossibleOriginsAreRefused(left: UInt32?, right: UInt32?) throws {
        let before = try Self.note()
        var note = before
        #expect(throws: ChangeSetError.self) { try note.apply(Self.changes(left: left, right: right)) }
        #expect(note.elementOrder == before.elementOrder && note.string == "abc")
        #expect(note.invariantViolations.isEmpty)
        #expect(try IntegrationOrderTests.load(note.encodedSnapshot()).get().string == "abc")
    }

    @Test(arguments: [(UInt32(0), UInt32(1)), (2, nil), (nil, 0), (1, 2)] as [(UInt32?, UInt32?)])
    func possibleOriginsAreApplied(left: UInt32?, right: UInt32?) throws {
        var note = try Self.note()
        try note.apply(Self.changes(left: left, right: right))
        #expect(note.string.count == 4 && note.invariantViolations.isEmpty)
    }

    /// Random change sets (inserts with origins drawn among the note's elements, its other
    /// inserts and none) applied to random notes: refused, changing nothing, or applied, leaving
    /// the rule's order; either way the note's snapshot reads back.
    @Test(arguments: [31, 32] as [UInt64])
    func randomOrigins(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var applied = 0, refused = 0
        for _ in 0..<300 {
            let base = FormatSamples.randomNotes(seed: rng.next(), replicas: 2, edits: 20)[0]
            let elements = base.elementOrder
            var set = ChangeSet()
            set.replicas = base.index.replicas + [ReplicaID(rawValue: 0xC0FFEE)]
            let newReplica = UInt32(set.replicas.count - 1)
            set.latestStamps = set.replicas.map { _ in .zero }
            set.clockLogs = set.replicas.map { _ in [] }
            var ids: [ItemRef] = elements.map { e in ItemRef(replica: UInt32(base.index.replicas.firstIndex { $0.rawValue == e.replica }!), seq: e.seq) }
            for k in 0..<UInt32.random(in: 1...4, using: &rng) {
                func origin() -> ItemRef { Int.random(in: 0..<5, using: &rng) == 0 ? .none : ids.randomElement(using: &rng) ?? .none }
                set.content.append(UInt8(ascii: "x"))
                set.inserts.append(.init(replica: newReplica, seq: k, length: 1, left: origin(), right: origin(),
                                         byteStart: k, byteCount: 1, utf16: 1))
                ids.append(ItemRef(replica: newReplica, seq: k))
            }
            // The all-at-once path (FORMAT.md §6 computed for the whole note) decides the same.
            var atOnce = base.index
            let atOnceApplied = (try? atOnce.apply(set, scanBudget: -1)) != nil
            #expect(atOnce.invariantViolations().isEmpty, "\(atOnce.invariantViolations().prefix(2))")
            var note = base
            defer { #expect(MergeCostTests.elements(atOnce) == MergeCostTests.elements(note.index)) }
            do {
                try note.apply(NoteChanges(changeSet: set))
                #expect(atOnceApplied)
                applied += 1
                #expect(note.invariantViolations.isEmpty, "\(note.invariantViolations.prefix(2))")
            } catch {
                #expect(!atOnceApplied)
                refused += 1
                #expect(note.elementOrder == base.elementOrder && note.string == base.string)
                #expect(note.invariantViolations.isEmpty, "\(note.invariantViolations.prefix(2))")
            }
            #expect(try IntegrationOrderTests.load(note.encodedSnapshot()).get().string == note.string)
        }
        #expect(applied > 20 && refused > 20, "applied \(applied), refused \(refused)")
    }
}
