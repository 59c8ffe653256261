import CRDTNoteSupport
import CRDTNote
/// LSB-first bit reader over DEFLATE input, with a 64-bit buffer refilled a word at a time.
///
/// Bits beyond `count` in `buffer` are always zero, and `buffer` holds exactly the last `count / 8`
/// (rounded up) bytes loaded, so after byte alignment the reader can hand unused bytes back (`rewind`).
struct DeflateBitStream {
    let input: UnsafeBufferPointer<UInt8>
    /// Index of the next byte to load into `buffer`.
    var position: Int
    var buffer: UInt64 = 0
    /// Number of valid bits in `buffer`.
    var count: Int = 0

    init(_ input: UnsafeBufferPointer<UInt8>, at position: Int) {
        self.input = input
        self.position = position
    }

    /// Offset of the byte holding the next unread bit, for error reports.
    var byteOffset: Int { (position * 8 - count) >> 3 }

    /// Tops the buffer up to at least 56 bits, or with whatever input is left.
    @inline(__always)
    mutating func refill() {
        if input.count - position >= 8 {
            let word = UInt64(littleEndian: UnsafeRawBufferPointer(input).loadUnaligned(fromByteOffset: position, as: UInt64.self))
            let n = (63 - count) >> 3
            buffer |= (word & ((1 << UInt64(n << 3)) &- 1)) << UInt64(count)
            position += n
            count += n << 3
        } else {
            while count <= 56 && position < input.count {
                buffer |= UInt64(input[position]) << UInt64(count)
                position += 1
                count += 8
            }
        }
    }

    /// Removes and returns the next `n` bits (`n <= 32`), refilling first.
    @inline(__always)
    mutating func take(_ n: Int, _ what: String) throws(BinaryDecodingError) -> UInt32 {
        if count < n { refill() }
        guard n <= count else {
            throw BinaryDecodingError(.truncated, at: byteOffset, "deflate stream ended inside \(what)")
        }
        let v = UInt32(truncatingIfNeeded: buffer & ((1 << UInt64(n)) &- 1))
        buffer >>= UInt64(n)
        count -= n
        return v
    }

    /// Decodes one symbol with `table` (whose entries are in `entries`), returning the raw entry.
    @inline(__always)
    mutating func decode(_ entries: UnsafeBufferPointer<UInt32>, primaryBits: Int, _ what: String) throws(BinaryDecodingError) -> UInt32 {
        if count < 15 { refill() }
        var e = entries[Int(truncatingIfNeeded: buffer & ((1 << UInt64(primaryBits)) &- 1))]
        if (e >> 12) & 0xF == HuffmanTable.kindPointer {
            let sub = Int(truncatingIfNeeded: buffer >> UInt64(primaryBits)) & ((1 << Int((e >> 8) & 0xF)) - 1)
            e = entries[Int(e >> 16) + sub]
        }
        let len = Int(e & 0xFF)
        guard (e >> 12) & 0xF != HuffmanTable.kindInvalid else {
            throw BinaryDecodingError(.invalidValue, at: byteOffset, "invalid Huffman code in \(what)")
        }
        guard len <= count else {
            throw BinaryDecodingError(.truncated, at: byteOffset, "deflate stream ended inside \(what)")
        }
        buffer >>= UInt64(len)
        count -= len
        return e
    }

    /// Drops bits up to the next byte boundary and returns whole unread bytes to the input, so
    /// `position` is the offset of the next byte after the bits consumed so far.
    mutating func alignAndRewind() {
        let drop = count & 7
        count -= drop
        position -= count >> 3
        buffer = 0
        count = 0
    }
}
