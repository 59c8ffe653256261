import CRDTNoteSupport
import CRDTNoteToolSupport

/// The text workloads of crdt-benchmarks (github.com/dmonad/crdt-benchmarks, js-lib/b1.js, b2.js,
/// b4.js; the suite behind the published Yjs / Loro / Automerge tables), generated with crdtnote's
/// SplitMix64 instead of lib0's PRNG, so the edits differ from the JavaScript suite's but every
/// implementation that follows Docs/BENCHMARKS.md ("Standard workloads") produces exactly these.
///
/// Every workload starts a fresh `SplitMix64(seed: 42)` (42 is the suite's seed). Draws:
/// - `word(min, max)`: length `min + next() % (max - min + 1)`, then each character
///   `"abcdefghijklmnopqrstuvwxyz"[next() % 26]` (lib0's `prng.word` draws lowercase letters);
/// - an index in `0...len`: `next() % (len + 1)`;
/// - a coin (`prng.bool`): `next() % 2 == 1`;
/// - a delete count in `1...m`: `1 + next() % m`.
/// Positions and lengths count Unicode scalars (all text here is ASCII).
enum StandardWorkloads {
    static let n = 6_000
    static let seed: UInt64 = 42
    static let letters = Array("abcdefghijklmnopqrstuvwxyz".unicodeScalars)

    /// One single-user workload (B1): the edits, applied one call at a time, and the text they give.
    struct Single {
        var id: String
        var title: String
        /// Each element is one "change function" call of b1.js (B1.6: insert then delete).
        var steps: [[WorkloadEdit]]
        var expected: String
    }

    /// One two-user workload (B2): a shared 100-character start, then each user's edits.
    struct Pair {
        var id: String
        var title: String
        var initial: String
        var edits1: [WorkloadEdit]
        var edits2: [WorkloadEdit]
        /// Each user's text after its own edits (the oracle for the local edits).
        var expected1: String
        var expected2: String
        /// Length of the merged text: surviving start characters plus both users' surviving inserts.
        var expectedMergedLength: Int
    }

    struct Generator {
        var rng = SplitMix64(seed: StandardWorkloads.seed)

        mutating func word(_ min: Int, _ max: Int) -> String {
            let length = min + Int(rng.next() % UInt64(max - min + 1))
            var view = String.UnicodeScalarView()
            for _ in 0..<length { view.append(letters[Int(rng.next() % 26)]) }
            return String(view)
        }

        mutating func index(upTo length: Int) -> Int { Int(rng.next() % UInt64(length + 1)) }
        mutating func coin() -> Bool { rng.next() % 2 == 1 }
        mutating func count(upTo m: Int) -> Int { 1 + Int(rng.next() % UInt64(m)) }
    }

    /// A plain array of tagged scalars: the oracle the CRDT's texts are checked against.
    /// Tags say which user inserted a character (0 = the shared start) so merges can be predicted.
    struct Oracle {
        var scalars: [Unicode.Scalar] = []
        var tags: [Int] = []

        mutating func apply(_ e: WorkloadEdit, tag: Int) {
            if e.deleteCount > 0 {
                scalars.removeSubrange(e.position..<e.position + e.deleteCount)
                tags.removeSubrange(e.position..<e.position + e.deleteCount)
            } else {
                let s = Array(e.text.unicodeScalars)
                scalars.insert(contentsOf: s, at: e.position)
                tags.insert(contentsOf: (0..<s.count).map { tag + $0 }, at: e.position)
            }
        }

        var string: String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            return String(view)
        }
    }

    static func insert(_ position: Int, _ text: String) -> WorkloadEdit {
        WorkloadEdit(position: position, deleteCount: 0, text: text)
    }

    static func delete(_ position: Int, _ count: Int) -> WorkloadEdit {
        WorkloadEdit(position: position, deleteCount: count, text: "")
    }

    /// B1.1–B1.6.
    static func single() -> [Single] {
        var out: [Single] = []
        do {
            var g = Generator()
            let s = g.word(n, n)
            let chars = s.unicodeScalars.map { String($0) }
            out.append(Single(id: "B1.1", title: "Append N characters",
                              steps: chars.enumerated().map { [insert($0.offset, $0.element)] }, expected: s))
        }
        do {
            var g = Generator()
            let s = g.word(n, n)
            out.append(Single(id: "B1.2", title: "Insert string of length N", steps: [[insert(0, s)]], expected: s))
        }
        do {
            var g = Generator()
            let s = g.word(n, n)
            out.append(Single(id: "B1.3", title: "Prepend N characters",
                              steps: s.unicodeScalars.reversed().map { [insert(0, String($0))] }, expected: s))
        }
        for (id, title, minLength, maxLength) in [("B1.4", "Insert N characters at random positions", 1, 1),
                                                  ("B1.5", "Insert N words at random positions", 2, 10)] {
            var g = Generator()
            var oracle = Oracle()
            var steps: [[WorkloadEdit]] = []
            for _ in 0..<n {
                let index = g.index(upTo: oracle.scalars.count)
                let edit = insert(index, g.word(minLength, maxLength))
                oracle.apply(edit, tag: 0)
                steps.append([edit])
            }
            out.append(Single(id: id, title: title, steps: steps, expected: oracle.string))
        }
        do {
            var g = Generator()
            let s = g.word(n, n)
            out.append(Single(id: "B1.6", title: "Insert string, then delete it",
                              steps: [[insert(0, s), delete(0, n)]], expected: ""))
        }
        return out
    }

    /// B2.1–B2.4. Each workload draws the start text, then user 1's edits, then user 2's.
    static func pairs() -> [Pair] {
        var out: [Pair] = []
        func pair(_ id: String, _ title: String, _ generate: (inout Generator, Int) -> [WorkloadEdit]) {
            var g = Generator()
            let initial = g.word(100, 100)
            var base = Oracle()
            base.apply(insert(0, initial), tag: 0)
            let edits1 = generate(&g, 100)
            let edits2 = generate(&g, 100)
            var o1 = base, o2 = base
            // Distinct tag ranges per user; start characters are 0..<100.
            var next = 1_000_000
            for e in edits1 { o1.apply(e, tag: next); next += 100 }
            next = 2_000_000_000
            for e in edits2 { o2.apply(e, tag: next); next += 100 }
            let kept1 = Set(o1.tags), kept2 = Set(o2.tags)
            let mergedStart = (0..<100).filter { kept1.contains($0) && kept2.contains($0) }.count
            let merged = mergedStart + o1.tags.filter { $0 >= 100 }.count + o2.tags.filter { $0 >= 100 }.count
            out.append(Pair(id: id, title: title, initial: initial, edits1: edits1, edits2: edits2,
                            expected1: o1.string, expected2: o2.string, expectedMergedLength: merged))
        }
        pair("B2.1", "Concurrently insert string of length N at index 0") { g, _ in [insert(0, g.word(n, n))] }
        func randomInserts(_ minLength: Int, _ maxLength: Int) -> (inout Generator, Int) -> [WorkloadEdit] {
            { g, start in
                var length = start
                var edits: [WorkloadEdit] = []
                for _ in 0..<n {
                    let index = g.index(upTo: length)
                    let text = g.word(minLength, maxLength)
                    edits.append(insert(index, text))
                    length += text.unicodeScalars.count
                }
                return edits
            }
        }
        pair("B2.2", "Concurrently insert N characters at random positions", randomInserts(1, 1))
        pair("B2.3", "Concurrently insert N words at random positions", randomInserts(3, 9))
        pair("B2.4", "Concurrently insert & delete") { g, start in
            var length = start
            var edits: [WorkloadEdit] = []
            for _ in 0..<n {
                let index = g.index(upTo: length)
                let text = g.word(3, 9)
                edits.append(insert(index, text))
                length += text.unicodeScalars.count
                // b2.js: `str.length === index || prng.bool(gen)`; the coin is drawn only when needed.
                if length == index || g.coin() {
                    let more = g.word(2, 10)
                    edits.append(insert(index, more))
                    length += more.unicodeScalars.count
                } else {
                    let count = g.count(upTo: min(9, length - index))
                    edits.append(delete(index, count))
                    length -= count
                }
            }
            return edits
        }
        return out
    }
}
