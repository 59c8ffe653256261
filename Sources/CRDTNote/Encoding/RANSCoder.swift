/// A static order-0 rANS entropy coder over bytes (Docs/FORMAT.md, "Compressed columns"):
/// 12-bit probabilities (frequencies sum to 4096), a 32-bit state kept in [2^23, 2^31), byte-wise
/// renormalisation. The encoder runs backwards over the symbols and the decoder forwards, so the
/// stream starts with the encoder's final state (4 bytes, little endian) followed by the
/// renormalisation bytes in the order the decoder consumes them. The encoder starts from state
/// 2^23 and the decoder must end on it, which, with "every byte consumed", catches most damage.
enum RANSCoder {
    /// Bits of precision of a frequency: they sum to `1 << scaleBits`.
    static let scaleBits: UInt32 = 12
    /// The sum of a table's frequencies: 4096.
    static let total: UInt32 = 1 << scaleBits
    /// Lower bound of the state; also the initial (encoder) and final (decoder) state.
    static let lowerBound: UInt32 = 1 << 23

    /// A frequency table: `frequencies[s]` is symbol `s`'s share of 4096 (0 = absent).
    struct Table: Equatable {
        var frequencies: [UInt32]

        /// Frequencies proportional to the symbols' counts in `bytes`, every symbol present
        /// getting at least 1, summing to exactly 4096. `bytes` must not be empty.
        init(normalizing bytes: [UInt8]) {
            var counts = [Int](repeating: 0, count: 256)
            for b in bytes { counts[Int(b)] += 1 }
            let n = max(bytes.count, 1)
            var frequencies = [UInt32](repeating: 0, count: 256)
            var sum: UInt32 = 0
            for s in 0..<256 where counts[s] > 0 {
                frequencies[s] = UInt32(max(1, counts[s] * Int(RANSCoder.total) / n))
                sum += frequencies[s]
            }
            // Floors leave a shortfall, given to the most frequent symbol; the minimum of 1 can
            // overshoot, taken back from the largest frequencies (ties: the lowest symbol).
            func largest() -> Int {
                var best = 0
                for s in 1..<256 where frequencies[s] > frequencies[best] { best = s }
                return best
            }
            if sum < RANSCoder.total {
                frequencies[largest()] += RANSCoder.total - sum
            }
            while sum > RANSCoder.total {
                let s = largest()
                let take = min(sum - RANSCoder.total, frequencies[s] - 1)
                frequencies[s] -= take
                sum -= take
            }
            self.frequencies = frequencies
        }

        init(frequencies: [UInt32]) { self.frequencies = frequencies }

        /// The symbols with a non-zero frequency, ascending.
        var symbols: [Int] { (0..<256).filter { frequencies[$0] > 0 } }

        /// `cumulative[s]`: the sum of the frequencies of the symbols below `s`.
        var cumulative: [UInt32] {
            var out = [UInt32](repeating: 0, count: 257)
            for s in 0..<256 { out[s + 1] = out[s] + frequencies[s] }
            return out
        }

        /// Writes the table: (symbol count - 1) as a byte, then per symbol in ascending order the
        /// symbol byte and its frequency as a varuint.
        func write(into out: inout ByteWriter) {
            let present = symbols
            out.writeByte(UInt8(present.count - 1))
            for s in present {
                out.writeByte(UInt8(s))
                out.writeVarUInt(UInt64(frequencies[s]))
            }
        }

        /// Reads a table written by `write`, refusing symbols out of order, frequencies of 0 or
        /// above 4096 and sums other than 4096.
        static func read(_ reader: inout ByteReader, _ what: String) throws(BinaryDecodingError) -> Table {
            let start = reader.offset
            let count = Int(try reader.readByte()) + 1
            var frequencies = [UInt32](repeating: 0, count: 256)
            var sum: UInt32 = 0
            var previous = -1
            for _ in 0..<count {
                let symbolOffset = reader.offset
                let symbol = Int(try reader.readByte())
                guard symbol > previous else {
                    throw BinaryDecodingError(.invalidValue, at: symbolOffset, "\(what): symbol \(symbol) of the frequency table is not above the previous one")
                }
                previous = symbol
                let frequencyOffset = reader.offset
                let f = try reader.readVarUInt(max: UInt64(RANSCoder.total), "\(what): frequency")
                guard f > 0 else {
                    throw BinaryDecodingError(.invalidValue, at: frequencyOffset, "\(what): symbol \(symbol) has frequency 0")
                }
                frequencies[symbol] = UInt32(f)
                sum += UInt32(f)
            }
            guard sum == RANSCoder.total else {
                throw BinaryDecodingError(.invalidValue, at: start, "\(what): frequencies sum to \(sum), not \(RANSCoder.total)")
            }
            return Table(frequencies: frequencies)
        }
    }

    /// Codes `bytes` with `table` (which must give every byte of `bytes` a non-zero frequency):
    /// the 4-byte final state, then the renormalisation bytes in decoding order.
    static func encode(_ bytes: [UInt8], table: Table) -> [UInt8] {
        let cumulative = table.cumulative
        var state = lowerBound
        var emitted: [UInt8] = []
        emitted.reserveCapacity(bytes.count / 2 + 8)
        for b in bytes.reversed() {
            let f = table.frequencies[Int(b)]
            // Keep the state below 2^31 after coding: renormalise while it is too large for `f`.
            let limit = ((lowerBound >> scaleBits) << 8) * f
            while state >= limit {
                emitted.append(UInt8(truncatingIfNeeded: state))
                state >>= 8
            }
            state = (state / f) << scaleBits + state % f + cumulative[Int(b)]
        }
        var out: [UInt8] = []
        out.reserveCapacity(emitted.count + 4)
        for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: state >> (8 * UInt32(k)))) }
        out.append(contentsOf: emitted.reversed())
        return out
    }

    /// Decodes exactly `count` bytes from `reader`, which must end exactly where the coded
    /// stream ends, with the state back at its initial value. Never traps on hostile input.
    static func decode(_ reader: inout ByteReader, count: Int, table: Table, _ what: String) throws(BinaryDecodingError) -> [UInt8] {
        let start = reader.offset
        let cumulative = table.cumulative
        var symbolOf = [UInt8](repeating: 0, count: Int(total))
        for s in 0..<256 where table.frequencies[s] > 0 {
            for slot in Int(cumulative[s])..<Int(cumulative[s + 1]) { symbolOf[slot] = UInt8(s) }
        }
        var state = try reader.readUInt32LE()
        guard state >= lowerBound, state < lowerBound << 8 else {
            throw BinaryDecodingError(.invalidValue, at: start, "\(what): initial rANS state 0x\(String(state, radix: 16)) is outside [2^23, 2^31)")
        }
        var out = [UInt8](repeating: 0, count: count)
        for i in 0..<count {
            let slot = state & (total - 1)
            let s = symbolOf[Int(slot)]
            // freq <= 4096 and state >> 12 < 2^19: no overflow; the result is >= 2^11.
            state = table.frequencies[Int(s)] * (state >> scaleBits) + slot - cumulative[Int(s)]
            while state < lowerBound {
                state = state << 8 | UInt32(try reader.readByte())
            }
            out[i] = s
        }
        try reader.expectEnd(what)
        guard state == lowerBound else {
            throw BinaryDecodingError(.invalidValue, at: start, "\(what): the rANS stream does not end in its initial state")
        }
        return out
    }
}
