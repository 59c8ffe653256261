@testable import CRDTNote
import CRDTNoteTestSupport

/// A snapshot described element by element and written from Docs/FORMAT.md (§3, §4.1, §4.3 and
/// §4.5 with raw columns), without the library's encoder: what hostile and fuzz tests feed the
/// decoder.
struct SpecState {
    struct Replica {
        var id: UInt64
        var nextSeq: UInt32
    }

    /// An element id: replica index in `replicas`, seq.
    struct ID: Hashable, Comparable {
        var replica: Int
        var seq: UInt32
        static func < (a: ID, b: ID) -> Bool { (a.replica, a.seq) < (b.replica, b.seq) }
    }

    struct Run {
        var replica: Int
        var seq: UInt32
        var length: UInt32
        var deleted: Bool
        var left: ID?
        var right: ID?
        /// The text of a visible run: `length` scalars.
        var text: String = ""
    }

    var replicas: [Replica]
    /// In document order.
    var runs: [Run]

    /// Every element in document order with its origins (a run's later elements have their
    /// predecessor as left origin).
    var elements: [NaiveRuleOracle.Element] {
        var out: [NaiveRuleOracle.Element] = []
        for run in runs {
            for k in 0..<run.length {
                let id = ID(replica: run.replica, seq: run.seq + k)
                let left = k == 0 ? run.left : ID(replica: run.replica, seq: run.seq + k - 1)
                out.append(.init(id: id, replicaID: replicas[run.replica].id, left: left, right: run.right))
            }
        }
        return out
    }

    // MARK: Writing (FORMAT.md)

    static func varuint(_ value: UInt64, into out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func varint(_ value: Int64, into out: inout [UInt8]) {
        varuint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), into: &out)
    }

    static func bytes(_ field: [UInt8], into out: inout [UInt8]) {
        varuint(UInt64(field.count), into: &out)
        out += field
    }

    /// The 18-byte header (§3) and `body`.
    static func payload(body: [UInt8], minimumReader: UInt16) -> [UInt8] {
        var out: [UInt8] = [0x43, 0x52, 0x4E, 0x54, UInt8(minimumReader), 0, UInt8(minimumReader), 0, 1, 0]
        let length = UInt32(body.count)
        let crc = PayloadBomb.crc32c(body)
        for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: length >> (8 * UInt32(k)))) }
        for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k)))) }
        return out + body
    }

    /// The replica table (§4.1, no clock log) and the text (§4.2).
    private func prologue() -> [UInt8] {
        var out: [UInt8] = []
        Self.varuint(UInt64(replicas.count), into: &out)
        for replica in replicas {
            for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: replica.id >> (8 * UInt64(k)))) }
            Self.varuint(UInt64(replica.nextSeq), into: &out)
            Self.varuint(0, into: &out)  // latest stamp
            Self.varuint(0, into: &out)  // no clock log
        }
        let text = runs.filter { !$0.deleted }.map(\.text).joined()
        Self.bytes(Array(text.utf8), into: &out)
        return out
    }

    /// A format 1 snapshot (§4.3): explicit origins unless none or the previous element.
    func formatOne() -> [UInt8] {
        var flags: [UInt8] = [], replicaColumn: [UInt8] = [], seqs: [UInt8] = [], lengths: [UInt8] = []
        var lefts: [UInt8] = [], rights: [UInt8] = []
        var lastEnd = [Int64](repeating: 0, count: replicas.count)
        var previous: Run?
        for (i, run) in runs.enumerated() {
            var flag: UInt8 = run.deleted ? 1 : 0
            if run.replica != (i == 0 ? 0 : previous!.replica) {
                flag |= 2
                Self.varuint(UInt64(run.replica), into: &replicaColumn)
            }
            Self.varint(Int64(run.seq) - lastEnd[run.replica], into: &seqs)
            lastEnd[run.replica] = Int64(run.seq + run.length)
            Self.varuint(UInt64(run.length - 1), into: &lengths)
            let previousEnd = previous.map { ID(replica: $0.replica, seq: $0.seq + $0.length - 1) }
            if let left = run.left {
                if left == previousEnd {
                    flag |= 0 << 2
                } else {
                    flag |= 2 << 2
                    Self.varuint(UInt64(left.replica), into: &lefts)
                    Self.varuint(UInt64(left.seq), into: &lefts)
                }
            } else if i > 0 {
                flag |= 1 << 2
            }
            if let right = run.right {
                flag |= 3 << 4
                Self.varuint(UInt64(right.replica), into: &rights)
                Self.varuint(UInt64(right.seq), into: &rights)
            }
            flags.append(flag)
            previous = run
        }
        var body = prologue()
        Self.varuint(UInt64(runs.count), into: &body)
        for column in [flags, replicaColumn, seqs, lengths, lefts, rights] { Self.bytes(column, into: &body) }
        return Self.payload(body: body, minimumReader: 1)
    }

    /// A format 2 snapshot (§4.5) with raw columns: sequence code 0 (deltas), explicit origins
    /// unless none or the previous element.
    func formatTwo() -> [UInt8] {
        var flags: [UInt8] = [], deltas: [UInt8] = [], lengths: [UInt8] = [], replicaColumn: [UInt8] = []
        var lefts: [UInt8] = [], rights: [UInt8] = []
        var lastEnd = [Int64](repeating: 0, count: replicas.count)
        var previous: Run?
        for (i, run) in runs.enumerated() {
            var flag: UInt8 = run.deleted ? 1 : 0
            if run.replica != (i == 0 ? 0 : previous!.replica) {
                flag |= 1 << 5
                Self.varuint(UInt64(run.replica), into: &replicaColumn)
            }
            Self.varint(Int64(run.seq) - lastEnd[run.replica], into: &deltas)
            lastEnd[run.replica] = Int64(run.seq + run.length)
            Self.varuint(UInt64(run.length - 1), into: &lengths)
            let previousEnd = previous.map { ID(replica: $0.replica, seq: $0.seq + $0.length - 1) }
            if let left = run.left {
                if left != previousEnd {
                    flag |= 3 << 1
                    Self.varuint(UInt64(left.replica), into: &lefts)
                    Self.varuint(UInt64(left.seq), into: &lefts)
                }
            } else if i > 0 {
                flag |= 1 << 1
            }
            if let right = run.right {
                flag |= 3 << 3
                Self.varuint(UInt64(right.replica), into: &rights)
                Self.varuint(UInt64(right.seq), into: &rights)
            } else {
                flag |= 2 << 3
            }
            flags.append(flag)
            previous = run
        }
        var body = prologue()
        Self.varuint(UInt64(runs.count), into: &body)
        for column in [flags, [], deltas, lengths, replicaColumn, lefts, rights] {
            body.append(0)  // raw
            Self.bytes(column, into: &body)
        }
        return Self.payload(body: body, minimumReader: 2)
    }
}

/// FORMAT.md §6 as written, one element at a time over a plain array: the oracle the library's
/// order check and integration are compared with. Quadratic; for small states only.
struct NaiveRuleOracle {
    struct Element: Equatable {
        var id: SpecState.ID
        var replicaID: UInt64
        var left: SpecState.ID?
        var right: SpecState.ID?
    }

    private(set) var elements: [Element] = []
    private var position: [SpecState.ID: Int] = [:]

    /// Places `new` by its origins (both must be present).
    mutating func integrate(_ new: Element) {
        let leftPosition = new.left.map { position[$0]! } ?? -1
        let rightPosition = new.right.map { position[$0]! } ?? elements.count
        var pos = leftPosition + 1
        var dest = pos
        var scanning = false
        while true {
            if !scanning { dest = pos }
            if pos == elements.count || pos == rightPosition { break }
            let other = elements[pos]
            let otherLeft = other.left.map { position[$0]! } ?? -1
            if otherLeft < leftPosition { break }
            if otherLeft == leftPosition {
                let otherRight = other.right.map { position[$0]! } ?? elements.count
                if otherRight < rightPosition {
                    scanning = true
                } else if otherRight == rightPosition {
                    if new.replicaID < other.replicaID { break }
                    scanning = false
                } else {
                    scanning = false
                }
            }
            pos += 1
        }
        elements.insert(new, at: dest)
        position = [:]
        for (i, e) in elements.enumerated() { position[e.id] = i }
    }

    /// `elements` integrated in a causal order (each after its origins and its own predecessor),
    /// the smallest id first among those ready; nil when there is none (a cycle or a missing origin).
    static func order(of elements: [Element]) -> [Element]? {
        var byID: [SpecState.ID: Element] = [:]
        for e in elements { byID[e.id] = e }
        var waiting: [SpecState.ID: Int] = [:]
        var dependants: [SpecState.ID: [SpecState.ID]] = [:]
        for e in elements {
            var needs = Set([e.left, e.right].compactMap { $0 })
            if e.id.seq > 0 { needs.insert(SpecState.ID(replica: e.id.replica, seq: e.id.seq - 1)) }
            for n in needs {
                guard byID[n] != nil else { return nil }
                dependants[n, default: []].append(e.id)
            }
            waiting[e.id] = needs.count
        }
        var ready = elements.filter { waiting[$0.id] == 0 }.map(\.id).sorted()
        var oracle = NaiveRuleOracle()
        while !ready.isEmpty {
            let next = ready.removeFirst()
            oracle.integrate(byID[next]!)
            for d in dependants[next] ?? [] {
                waiting[d]! -= 1
                if waiting[d] == 0 { ready.append(d) }
            }
            ready.sort()
        }
        return oracle.elements.count == elements.count ? oracle.elements : nil
    }
}
