/// Turns "the whole new text" into the edits a person would have made, coarse to fine
/// (Docs/RECORD-FORMAT.md, "Folding plain text: the diff, version 2", specifies it exactly;
/// another implementation must derive the same edits):
///
/// 1. the common prefix and suffix, cut back to whole lines, are left alone;
/// 2. the lines left are diffed as tokens (patience anchoring on unique lines, then Myers'
///    diff with a step budget, continued chunk by chunk when the budget runs out);
/// 3. each changed stretch of lines is diffed again as word, whitespace and line-break tokens;
/// 4. a changed stretch of words becomes a character-level edit only when it is a pure
///    insertion or deletion (a typed suffix, a deleted letter); otherwise its words are
///    replaced whole, so no stray letter of a deleted word survives inside a new one.
///
/// Edit boundaries never split a grapheme cluster as `TextDiff.isAttached` defines it.
/// Time and memory are linear in the text for ordinary notes, and bounded (budgeted Myers,
/// content-defined chunks of long words) for degenerate ones.
enum TextDiff {
    /// The version of this algorithm. Any change to the edits it derives for some input must
    /// increase it: folds of plain text derive their replica ids from it
    /// (`NoteReplicaDerivation.foldTag`), so two releases with different diffs never give
    /// different characters the same ids. Version 1 (before this one) was a character-level
    /// Myers diff capped at 512 steps.
    static let version = 2

    /// One replacement, in scalar offsets of the text at the moment it is applied.
    struct Edit: Equatable {
        var offset: Int
        var deleteCount: Int
        var insert: [UInt8]
        var insertScalars: Int
        var insertUTF16: Int
    }

    /// A changed stretch: old units `oldStart..<oldEnd` become new units `newStart..<newEnd`
    /// (tokens or scalars, depending on the stage).
    struct Hunk: Equatable {
        var oldStart: Int, oldEnd: Int, newStart: Int, newEnd: Int
        var isPure: Bool { oldStart == oldEnd || newStart == newEnd }
    }

    /// Edits turning `old` into `new` (both valid UTF-8), ordered from the end of the text
    /// to its start so each can be applied in turn without shifting the next.
    static func edits(from old: [UInt8], to new: [UInt8]) -> [Edit] {
        if old == new { return [] }
        let (prefix, suffix) = lineAlignedTrim(old, new)
        let a = decodeScalars(old[prefix..<old.count - suffix])
        let b = decodeScalars(new[prefix..<new.count - suffix])
        let base = UTF8Counting.counts(old[0..<prefix]).scalars
        return scalarHunks(a, b).reversed().map { h in
            edit(offset: base + h.oldStart, deleteCount: h.oldEnd - h.oldStart, inserting: b[h.newStart..<h.newEnd])
        }
    }

    /// The edit replacing `deleteCount` scalars at `offset` with `scalars` (Unicode scalar
    /// values, as `decodeScalars` gives them).
    static func edit(offset: Int, deleteCount: Int, inserting scalars: ArraySlice<UInt32>) -> Edit {
        var inserted: [UInt8] = []
        inserted.reserveCapacity(scalars.count)
        var utf16 = 0
        for v in scalars {
            UTF8.encode(Unicode.Scalar(v)!) { inserted.append($0) }
            utf16 += v > 0xFFFF ? 2 : 1
        }
        return Edit(offset: offset, deleteCount: deleteCount, insert: inserted, insertScalars: scalars.count, insertUTF16: utf16)
    }

    /// Lengths in bytes of the common prefix and suffix, each cut back so the text between
    /// them is whole lines in both texts: the prefix ends just after a line feed (or is empty),
    /// the suffix starts at a line start (after a line feed, or at the text's start) in both texts
    /// (or is empty).
    static func lineAlignedTrim(_ old: [UInt8], _ new: [UInt8]) -> (prefix: Int, suffix: Int) {
        old.withUnsafeBufferPointer { o in
            new.withUnsafeBufferPointer { n in
                let shorter = min(o.count, n.count)
                var p = 0
                while p < shorter && o[p] == n[p] { p += 1 }
                while p > 0 && o[p - 1] != 0x0A { p -= 1 }
                var s = 0
                while s < shorter - p && o[o.count - 1 - s] == n[n.count - 1 - s] { s += 1 }
                while s > 0 && !(isLineStart(o, o.count - s) && isLineStart(n, n.count - s)) { s -= 1 }
                return (p, s)
            }
        }
    }

    @inline(__always)
    private static func isLineStart(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        i == 0 || bytes[i - 1] == 0x0A
    }

    /// The hunks, in scalar offsets of `a` and `b`, ordered from the start of the text.
    static func scalarHunks(_ a: [UInt32], _ b: [UInt32]) -> [Hunk] {
        let lines = tokenize(a, 0..<a.count, b, 0..<b.count, words: false)
        var differ = TokenDiffer(a: lines.a.ids, b: lines.b.ids, anchorable: lines.anchorable)
        differ.diff(0, lines.a.ids.count, 0, lines.b.ids.count, depth: 0)
        var out: [Hunk] = []
        for t in differ.hunks {
            let h = Hunk(oldStart: lines.a.starts[t.oldStart], oldEnd: lines.a.starts[t.oldEnd],
                         newStart: lines.b.starts[t.newStart], newEnd: lines.b.starts[t.newEnd])
            if h.isPure { out.append(h) } else { refineWords(a, b, h, into: &out) }
        }
        return out
    }

    /// Unicode scalar values of valid UTF-8.
    static func decodeScalars(_ bytes: ArraySlice<UInt8>) -> [UInt32] {
        bytes.withUnsafeBufferPointer { buf in
            [UInt32](unsafeUninitializedCapacity: buf.count) { out, count in
                var i = 0, j = 0
                let n = buf.count
                while i < n {
                    let b0 = UInt32(buf[i])
                    if b0 < 0x80 {
                        out[j] = b0; i += 1
                    } else if b0 < 0xE0 {
                        out[j] = (b0 & 0x1F) << 6 | UInt32(buf[i + 1] & 0x3F); i += 2
                    } else if b0 < 0xF0 {
                        out[j] = (b0 & 0x0F) << 12 | UInt32(buf[i + 1] & 0x3F) << 6 | UInt32(buf[i + 2] & 0x3F); i += 3
                    } else {
                        out[j] = (b0 & 0x07) << 18 | UInt32(buf[i + 1] & 0x3F) << 12
                            | UInt32(buf[i + 2] & 0x3F) << 6 | UInt32(buf[i + 3] & 0x3F); i += 4
                    }
                    j += 1
                }
                count = j
            }
        }
    }
}
