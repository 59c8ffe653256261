import CRDTNoteSupport
import CRDTNote
extension Inflater {
    /// How the inner decoding loop stopped.
    enum BlockStatus {
        case endOfBlock
        /// Fewer than `maxMatch` bytes of spare output room: hand the output out, slide, call again.
        case needSpace
        case failed(BinaryDecodingError)
    }

    /// Decodes a Huffman block's symbols into the window until its end-of-block code, or until
    /// less than one maximal match of room is left (`.needSpace`: hand the output out, slide, resume).
    mutating func decodeHuffman(_ literals: HuffmanTable, _ distances: HuffmanTable) -> BlockStatus {
        var stream = bits
        var count = outCount
        let output = window.bytes
        // The limit in window indexes: output that slid out already counts against it.
        let limit = maxOutput - windowBase
        let status = literals.entries.withUnsafeBufferPointer { lt in
            distances.entries.withUnsafeBufferPointer { dt in
                Inflater.decodeSymbols(&stream, lt, literals.primaryBits, dt, distances.primaryBits,
                                       output, &count, floor: memberStart, limit: limit)
            }
        }
        bits = stream
        outCount = count
        if case let .failed(error) = status, error.code == .outputTooLarge {
            return .failed(BinaryDecodingError(.outputTooLarge, at: error.offset,
                                               "decompressed data exceeds the limit of \(maxOutput) bytes"))
        }
        return status
    }

    /// The hot loop: one literal or one length/distance pair per iteration, with table lookups only.
    /// Stops (without consuming anything) when spare output room drops below one maximal match.
    @inline(__always)
    static func decodeSymbols(
        _ s: inout DeflateBitStream,
        _ lt: UnsafeBufferPointer<UInt32>, _ litBits: Int,
        _ dt: UnsafeBufferPointer<UInt32>, _ distBits: Int,
        _ ob: UnsafeMutableBufferPointer<UInt8>, _ count: inout Int, floor: Int, limit: Int
    ) -> BlockStatus {
        let litMask = (UInt64(1) << UInt64(litBits)) - 1
        let distMask = (UInt64(1) << UInt64(distBits)) - 1
        var n = count
        defer { count = n }
        while true {
            if ob.count - n < maxMatch { return .needSpace }
            if s.count < 48 { s.refill() }
            let offset = s.byteOffset
            // Literal/length symbol.
            var e = lt[Int(truncatingIfNeeded: s.buffer & litMask)]
            var kind = (e >> 12) & 0xF
            if kind == HuffmanTable.kindPointer {
                e = lt[Int(e >> 16) + (Int(truncatingIfNeeded: s.buffer >> UInt64(litBits)) & ((1 << Int((e >> 8) & 0xF)) - 1))]
                kind = (e >> 12) & 0xF
            }
            var used = Int(e & 0xFF)
            if kind == HuffmanTable.kindLiteral {
                guard used <= s.count else { return truncated(offset) }
                s.buffer >>= UInt64(used)
                s.count -= used
                guard n < limit else { return tooLarge(offset, limit) }
                ob[n] = UInt8(truncatingIfNeeded: e >> 16)
                n += 1
                continue
            }
            if kind == HuffmanTable.kindEndOfBlock {
                guard used <= s.count else { return truncated(offset) }
                s.buffer >>= UInt64(used)
                s.count -= used
                return .endOfBlock
            }
            guard kind == HuffmanTable.kindBase else {
                return .failed(BinaryDecodingError(.invalidValue, at: offset, "invalid literal/length code"))
            }
            // Length: base plus extra bits, which follow the code.
            var extra = Int((e >> 8) & 0xF)
            guard used + extra <= s.count else { return truncated(offset) }
            let length = Int(e >> 16) + Int((s.buffer >> UInt64(used)) & ((1 << UInt64(extra)) - 1))
            s.buffer >>= UInt64(used + extra)
            s.count -= used + extra
            // Distance.
            e = dt[Int(truncatingIfNeeded: s.buffer & distMask)]
            kind = (e >> 12) & 0xF
            if kind == HuffmanTable.kindPointer {
                e = dt[Int(e >> 16) + (Int(truncatingIfNeeded: s.buffer >> UInt64(distBits)) & ((1 << Int((e >> 8) & 0xF)) - 1))]
                kind = (e >> 12) & 0xF
            }
            guard kind == HuffmanTable.kindBase else {
                return .failed(BinaryDecodingError(.invalidValue, at: s.byteOffset, "invalid distance code"))
            }
            used = Int(e & 0xFF)
            extra = Int((e >> 8) & 0xF)
            guard used + extra <= s.count else { return truncated(s.byteOffset) }
            let distance = Int(e >> 16) + Int((s.buffer >> UInt64(used)) & ((1 << UInt64(extra)) - 1))
            s.buffer >>= UInt64(used + extra)
            s.count -= used + extra
            guard distance <= n - floor else {
                return .failed(BinaryDecodingError(.invalidValue, at: offset,
                    "match distance \(distance) reaches before the start of the output (\(n - floor) bytes)"))
            }
            guard length <= limit - n else { return tooLarge(offset, limit) }
            copyMatch(ob, to: n, distance: distance, length: length)
            n += length
        }
    }

    /// Copies `length` bytes from `distance` back; overlapping copies repeat the pattern, as DEFLATE requires.
    @inline(__always)
    static func copyMatch(_ ob: UnsafeMutableBufferPointer<UInt8>, to n: Int, distance: Int, length: Int) {
        let src = n - distance
        if distance >= length {
            _ = UnsafeMutableBufferPointer(rebasing: ob[n..<(n + length)])
                .update(fromContentsOf: UnsafeBufferPointer(rebasing: ob[src..<(src + length)]))
        } else if distance == 1 {
            UnsafeMutableBufferPointer(rebasing: ob[n..<(n + length)]).update(repeating: ob[src])
        } else {
            for i in 0..<length { ob[n + i] = ob[src + i] }
        }
    }

    static func truncated(_ offset: Int) -> BlockStatus {
        .failed(BinaryDecodingError(.truncated, at: offset, "deflate stream ended inside a compressed block"))
    }

    static func tooLarge(_ offset: Int, _ limit: Int) -> BlockStatus {
        .failed(BinaryDecodingError(.outputTooLarge, at: offset, "decompressed data exceeds the output limit"))
    }
}
