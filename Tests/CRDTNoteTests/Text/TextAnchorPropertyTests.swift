import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Anchors against an oracle that knows nothing of the CRDT: the text is made of characters that
/// each appear once, so the character an anchor is attached to can be found by value in the new
/// text. Local and remote edits (merged both ways, as whole states and as changes) move text
/// around the anchors; emoji (surrogate pairs) are mixed in.
@Suite struct TextAnchorPropertyTests {
    /// Hands out characters never used before: CJK ideographs (one UTF-16 unit) and, every third
    /// one, ideographs of the supplementary plane (a surrogate pair).
    struct UniqueCharacters {
        var next = 0
        mutating func make(_ count: Int) -> [Unicode.Scalar] {
            (0..<count).map { _ in
                defer { next += 1 }
                let value = next % 3 == 0 ? 0x20000 + UInt32(next) : 0x4E00 + UInt32(next)
                return Unicode.Scalar(value) ?? "?"
            }
        }
    }

    /// What the test knows about an anchor: the character it holds on to (by value) and its bias.
    struct Tracked {
        var anchor: TextAnchor
        /// nil for the start and end anchors.
        var character: Unicode.Scalar?
        var bias: TextAnchor.Bias
        var isStart: Bool
    }

    static func utf16Length(_ scalars: some Sequence<Unicode.Scalar>) -> Int {
        scalars.reduce(0) { $0 + UTF16.width($1) }
    }

    /// A random edit of `note` made of fresh characters (the oracle never sees ids).
    static func randomEdit(_ note: inout NoteText, _ chars: inout UniqueCharacters, _ rng: inout SplitMix64) throws {
        let n = note.scalarCount
        if n > 0 && Int.random(in: 0..<3, using: &rng) == 0 {
            let lo = Int.random(in: 0..<n, using: &rng)
            let hi = min(n, lo + Int.random(in: 1...4, using: &rng))
            let insert = Bool.random(using: &rng) ? chars.make(Int.random(in: 1...3, using: &rng)) : []
            try note.replaceScalars(in: lo..<hi, with: String(String.UnicodeScalarView(insert)))
        } else {
            let at = Int.random(in: 0...n, using: &rng)
            try note.insert(String(String.UnicodeScalarView(chars.make(Int.random(in: 1...4, using: &rng)))), atScalarOffset: at)
        }
    }

    @Test(arguments: Array(1...16) as [UInt64])
    func anchorsFollowTheirCharacters(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var chars = UniqueCharacters()
        var local = try NoteText(String(String.UnicodeScalarView(chars.make(30))), replica: .test(1))
        var remote = local.forked(as: .test(2))
        var tracked: [Tracked] = []
        /// Pairs (i, j) of tracked anchors once seen strictly in order i < j (as i * 10_000 + j): they never swap.
        var ordered = Set<Int>()
        for step in 0..<120 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<3:
                try Self.randomEdit(&local, &chars, &rng)
            case 3..<6:
                try Self.randomEdit(&remote, &chars, &rng)
            case 6:
                try local.merge(remote)
            case 7:
                try remote.apply(local.changes(since: remote.version))
            default:
                // New anchors at random offsets (0 and the end included), both biases.
                let scalars = Array(local.string.unicodeScalars)
                for _ in 0..<2 {
                    let k = Int.random(in: 0...scalars.count, using: &rng)
                    let offset = Self.utf16Length(scalars[..<k])
                    for bias in [TextAnchor.Bias.before, .after] {
                        let anchor = try local.anchor(atUTF16: offset, bias: bias)
                        #expect(local.utf16Offset(of: anchor) == offset, "seed \(seed) step \(step): fresh anchor moved")
                        #expect(local.scalarOffset(of: anchor) == k)
                        let character: Unicode.Scalar? = bias == .before ? (k > 0 ? scalars[k - 1] : nil) : (k < scalars.count ? scalars[k] : nil)
                        if character == nil { #expect(anchor == (bias == .before ? .start : .end)) }
                        tracked.append(Tracked(anchor: anchor, character: character, bias: bias, isStart: bias == .before))
                    }
                }
            }
            try check(local, tracked, &ordered, seed: seed, step: step)
        }
        // Full exchange: both copies agree on every anchor, including after a round trip through bytes
        // and through Codable on the other replica.
        try local.merge(remote)
        try remote.merge(local)
        #expect(local.string == remote.string)
        for t in tracked {
            let decoded = try TextAnchor(encoded: t.anchor.encoded)
            #expect(decoded == t.anchor)
            let json = try JSONEncoder().encode(t.anchor)
            let fromJSON = try JSONDecoder().decode(TextAnchor.self, from: json)
            #expect(fromJSON == t.anchor)
            #expect(remote.utf16Offset(of: decoded) == local.utf16Offset(of: t.anchor))
            #expect(remote.scalarOffset(of: fromJSON) == local.scalarOffset(of: t.anchor))
        }
        try check(local, tracked, &ordered, seed: seed, step: -1)
        NoteText.expectSound([local, remote], "seed \(seed)")
    }

    /// Checks every tracked anchor of `note` against the oracle and the order kept so far.
    func check(_ note: NoteText, _ tracked: [Tracked], _ ordered: inout Set<Int>, seed: UInt64, step: Int) throws {
        let scalars = Array(note.string.unicodeScalars)
        let total = Self.utf16Length(scalars)
        var index: [Unicode.Scalar: Int] = [:]
        for (i, s) in scalars.enumerated() { index[s] = i }
        var resolved: [Int] = []
        var whereDeleted: [Unicode.Scalar: Int] = [:]
        for t in tracked {
            let offset = try #require(note.utf16Offset(of: t.anchor), "seed \(seed) step \(step): anchor unknown on its own copy")
            resolved.append(offset)
            #expect(offset >= 0 && offset <= total)
            guard let c = t.character else {
                #expect(offset == (t.isStart ? 0 : total), "seed \(seed) step \(step): start/end anchor moved")
                continue
            }
            if let i = index[c] {
                // Surviving character: `.after` sits just before it, `.before` just after it.
                let expected = Self.utf16Length(scalars[..<i]) + (t.bias == .before ? UTF16.width(c) : 0)
                #expect(offset == expected, "seed \(seed) step \(step): anchor \(t.anchor) at \(offset), expected \(expected)")
            } else if let other = whereDeleted[c] {
                // Deleted: both biases sit at the same place, where the character was.
                #expect(offset == other, "seed \(seed) step \(step): anchors of one deleted character disagree")
            } else {
                whereDeleted[c] = offset
            }
        }
        for pair in ordered {
            let (i, j) = (pair / 10_000, pair % 10_000)
            #expect(resolved[i] <= resolved[j], "seed \(seed) step \(step): anchors \(i) and \(j) swapped")
        }
        for i in resolved.indices {
            for j in resolved.indices where resolved[i] < resolved[j] { ordered.insert(i * 10_000 + j) }
        }
    }

    /// Every offset of a text with emoji, flags, combining marks and CRLF, both biases: a fresh
    /// anchor resolves to the offset it was made at; offsets inside a surrogate pair or outside the
    /// text are refused with typed errors.
    @Test func everyOffsetRoundTrips() throws {
        var rng = SplitMix64(seed: 99)
        var note = NoteText(replica: .test(1))
        for _ in 0..<30 {
            try note.insert(RandomText.make(&rng), atScalarOffset: Int.random(in: 0...note.scalarCount, using: &rng))
        }
        try note.deleteScalars(in: 3..<9)
        let units = Array(note.string.utf16)
        for offset in 0...units.count {
            let inside = offset > 0 && offset < units.count && UTF16.isTrailSurrogate(units[offset])
            for bias in [TextAnchor.Bias.before, .after] {
                if inside {
                    #expect(throws: NoteTextError.self) { try note.anchor(atUTF16: offset, bias: bias) }
                    do {
                        _ = try note.anchor(atUTF16: offset, bias: bias)
                    } catch {
                        #expect(error.code == .insideSurrogatePair)
                    }
                } else {
                    let anchor = try note.anchor(atUTF16: offset, bias: bias)
                    #expect(note.utf16Offset(of: anchor) == offset)
                }
            }
        }
        for k in 0...note.scalarCount {
            for bias in [TextAnchor.Bias.before, .after] {
                #expect(note.scalarOffset(of: try note.anchor(atScalar: k, bias: bias)) == k)
            }
        }
        #expect(try note.anchor(atUTF16: 0, bias: .before) == .start)
        #expect(try note.anchor(atUTF16: units.count, bias: .after) == .end)
        for bad in [-1, units.count + 1] {
            do {
                _ = try note.anchor(atUTF16: bad, bias: .after)
                Issue.record("offset \(bad) accepted")
            } catch {
                #expect(error.code == .outOfBounds)
            }
            do {
                _ = try note.anchor(atScalar: bad + (bad < 0 ? 0 : note.scalarCount - units.count), bias: .before)
                Issue.record("scalar offset \(bad) accepted")
            } catch {
                #expect(error.code == .outOfBounds)
            }
        }
    }

    /// Text inserted exactly at an anchor's position goes after a `.before` anchor and before an
    /// `.after` one, whoever inserts it; an anchor made on another copy is unknown until merged.
    @Test func biasDecidesWhereInsertedTextGoes() throws {
        var note = try NoteText("ab", replica: .test(1))
        var other = note.forked(as: .test(2))
        let before = try note.anchor(atUTF16: 1, bias: .before)
        let after = try note.anchor(atUTF16: 1, bias: .after)
        try other.insert("XY", atUTF16Offset: 1)
        #expect(note.utf16Offset(of: TextAnchor(target: .character(replica: .test(2), seq: 0), bias: .after)) == nil)
        let made = try other.anchor(atUTF16: 2, bias: .before)
        #expect(note.utf16Offset(of: made) == nil)
        try note.merge(other)
        #expect(note.string == "aXYb")
        #expect(note.utf16Offset(of: before) == 1)
        #expect(note.utf16Offset(of: after) == 3)
        #expect(note.utf16Offset(of: made) == 2)
        try note.insert("Z", atUTF16Offset: 0)
        #expect(note.utf16Offset(of: .start) == 0)
        #expect(note.utf16Offset(of: .end) == 5)
        #expect(note.utf16Offset(of: before) == 2)
    }

    /// The byte and string forms: sizes, round trips, and typed errors for damaged input.
    @Test func encodingsAreCompactAndStrict() throws {
        #expect(TextAnchor.start.encoded == [0])
        #expect(TextAnchor.end.encoded == [1])
        let anchor = TextAnchor(target: .character(replica: .test(300), seq: 5), bias: .before)
        #expect(anchor.encoded == [2, 0xAC, 0x02, 5])
        #expect(anchor.description == "b300.5")
        let big = TextAnchor(target: .character(replica: ReplicaID(rawValue: .max), seq: .max), bias: .after)
        #expect(big.encoded.count == 16)
        #expect(try TextAnchor(encoded: big.encoded) == big)
        let cases: [([UInt8], BinaryDecodingError.Code)] = [
            ([], .truncated), ([9], .invalidValue), ([2, 0x80], .truncated), ([2, 1], .truncated),
            ([2, 1, 0x80, 0x80, 0x80, 0x80, 0x10], .invalidValue), ([0, 0], .trailingBytes), ([3, 1, 1, 7], .trailingBytes),
            ([2, 0x81, 0x00, 1], .nonMinimalVarint),
        ]
        for (bytes, code) in cases {
            do {
                _ = try TextAnchor(encoded: bytes)
                Issue.record("\(bytes) decoded")
            } catch {
                #expect(error.code == code, "\(bytes): \(error)")
            }
        }
        for text in ["start", "end", "a0.0", "b18446744073709551615.4294967295"] {
            #expect(TextAnchor(compact: text)?.description == text)
        }
        for text in ["", "x1.2", "a1", "a.2", "a1.", "a01.2", "a1.02", "a+1.2", "a1.4294967296", "a 1.2", "b1.2.3", "START"] {
            #expect(TextAnchor(compact: text) == nil, "\(text) accepted")
            let json = Data("\"\(text)\"".utf8)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(TextAnchor.self, from: json) }
        }
    }
}
