import CRDTNoteTraces

/// The floor for `replay`: a plain gap buffer of Unicode scalars applying the same patches
/// (no CRDT, no ids, no index). Every replay figure is reported with its ratio to this one,
/// measured in the same run, because machines and sessions differ by more than the changes
/// being measured.
///
/// A concurrent trace's patches are applied in trace order to one buffer with positions
/// clamped: the text is meaningless, but the work (one splice per patch) is the same.
struct GapBuffer {
    private var storage: [Unicode.Scalar]
    private var gapStart = 0
    private var gapEnd: Int

    init(_ text: String, capacity: Int = 1 << 12) {
        let scalars = Array(text.unicodeScalars)
        storage = scalars + [Unicode.Scalar](repeating: " ", count: Swift.max(capacity, 16))
        gapStart = scalars.count
        gapEnd = storage.count
    }

    var count: Int { storage.count - (gapEnd - gapStart) }

    /// Moves the gap to `position` (memmove of the scalars in between) and makes sure it
    /// holds at least `needed` scalars.
    private mutating func moveGap(to position: Int, needed: Int) {
        if gapEnd - gapStart < needed {
            let grow = Swift.max(needed, storage.count)
            storage.insert(contentsOf: repeatElement(" " as Unicode.Scalar, count: grow), at: gapEnd)
            gapEnd += grow
        }
        if position == gapStart { return }
        let stride = MemoryLayout<Unicode.Scalar>.stride
        storage.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!
            if position < gapStart {
                let n = gapStart - position
                (base + (gapEnd - n) * stride).copyMemory(from: base + position * stride, byteCount: n * stride)
                gapStart = position
                gapEnd -= n
            } else {
                let n = position - gapStart
                (base + gapStart * stride).copyMemory(from: base + gapEnd * stride, byteCount: n * stride)
                gapStart += n
                gapEnd += n
            }
        }
    }

    /// Deletes `deleteCount` scalars at `position` and inserts `text` there (clamped to the buffer).
    mutating func splice(at position: Int, deleteCount: Int, insert text: String) {
        let length = count
        let p = Swift.min(Swift.max(position, 0), length)
        let d = Swift.min(Swift.max(deleteCount, 0), length - p)
        var text = text
        text.withUTF8 { utf8 in
            // Scalars never outnumber UTF-8 bytes: reserve that many, then decode in place.
            moveGap(to: p, needed: utf8.count)
            gapEnd += d
            storage.withUnsafeMutableBufferPointer { s in
                var i = 0
                while i < utf8.count {
                    let lead = utf8[i]
                    var value: UInt32
                    if lead < 0x80 { value = UInt32(lead); i += 1 }
                    else if lead < 0xE0 { value = UInt32(lead & 0x1F) << 6 | UInt32(utf8[i + 1] & 0x3F); i += 2 }
                    else if lead < 0xF0 {
                        value = UInt32(lead & 0x0F) << 12 | UInt32(utf8[i + 1] & 0x3F) << 6 | UInt32(utf8[i + 2] & 0x3F); i += 3
                    } else {
                        value = UInt32(lead & 0x07) << 18 | UInt32(utf8[i + 1] & 0x3F) << 12
                            | UInt32(utf8[i + 2] & 0x3F) << 6 | UInt32(utf8[i + 3] & 0x3F); i += 4
                    }
                    s[gapStart] = Unicode.Scalar(value) ?? " "
                    gapStart += 1
                }
            }
        }
    }

    var string: String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: storage[0..<gapStart])
        out.append(contentsOf: storage[gapEnd...])
        return String(out)
    }

    /// Applies every patch of `trace`; returns the final length (so the work cannot be optimized away).
    static func replay(_ trace: EditingTrace) -> GapBuffer {
        switch trace {
        case .sequential(let s):
            var buffer = GapBuffer(s.startContent)
            for p in s.patches { buffer.splice(at: p.position, deleteCount: p.deleteCount, insert: p.insert) }
            return buffer
        case .concurrent(let c):
            var buffer = GapBuffer("")
            for txn in c.transactions {
                for p in txn.patches { buffer.splice(at: p.position, deleteCount: p.deleteCount, insert: p.insert) }
            }
            return buffer
        }
    }
}
