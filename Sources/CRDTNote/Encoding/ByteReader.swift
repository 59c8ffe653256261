/// A bounds-checked read cursor over untrusted bytes.
///
/// Every read either returns a value or throws a `BinaryDecodingError` whose `offset` is the absolute
/// offset of the field that failed (the reader's `baseOffset` plus the index into `bytes`). A failed read
/// leaves the cursor where it was. Nothing is allocated based on a length read from the input before
/// that length has been checked against the bytes that are actually there.
///
/// Varints are unsigned LEB128, at most 10 bytes, and must use the shortest encoding: overlong forms
/// (`80 00` for 0) are rejected with `.nonMinimalVarint`, so every value has exactly one encoding and
/// re-encoding a decoded record reproduces its bytes.
///
/// ```swift
/// var r = ByteReader(bytes)
/// let count = try r.readCount("runs", minimumBytesEach: 3)
/// for _ in 0..<count { let len = try r.readVarUInt(max: 1 << 20, "run length"); ... }
/// try r.expectEnd("snapshot")
/// ```
package struct ByteReader: Sendable {
    let bytes: [UInt8]
    /// Index into `bytes` of the next unread byte.
    var position: Int
    /// Index into `bytes` one past the last readable byte.
    let end: Int
    let baseOffset: Int
    /// Whether every offset reported is `baseOffset` itself: bytes decoded from a coded column have
    /// no place of their own in the input, so their errors point at the column.
    let pinned: Bool

    /// Creates a reader over `bytes[range]` (all of `bytes` by default). `baseOffset` is added to every
    /// reported offset, so a reader over an extracted payload can report offsets in the enclosing file;
    /// when `pinned`, every reported offset is `baseOffset` (bytes that were decoded, not read).
    /// A `range` reaching outside `bytes` is clamped to it.
    package init(_ bytes: [UInt8], range: Range<Int>? = nil, baseOffset: Int = 0, pinned: Bool = false) {
        let r = (range ?? bytes.indices).clamped(to: bytes.indices)
        self.bytes = bytes
        self.position = r.lowerBound
        self.end = r.upperBound
        self.baseOffset = baseOffset
        self.pinned = pinned
    }

    /// Absolute offset of the next unread byte (the pinned offset for decoded bytes).
    package var offset: Int { pinned ? baseOffset : baseOffset &+ position }

    /// Number of bytes left to read.
    package var remaining: Int { end - position }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { position >= end }

    /// Absolute offset of index `i` of `bytes`, for error reports.
    func absolute(_ i: Int) -> Int { pinned ? baseOffset : baseOffset &+ i }

    /// Reads one byte.
    package mutating func readByte() throws(BinaryDecodingError) -> UInt8 {
        guard position < end else {
            throw BinaryDecodingError(.truncated, at: offset, "needed 1 byte, input ended")
        }
        let b = bytes[position]
        position += 1
        return b
    }

    /// Reads `n` bytes as a slice of the input (no copy). `n` is checked against `remaining` first.
    /// The slice keeps the input's indices.
    package mutating func readBytes(_ n: Int) throws(BinaryDecodingError) -> ArraySlice<UInt8> {
        guard n >= 0 else {
            throw BinaryDecodingError(.invalidValue, at: offset, "negative byte count \(n)")
        }
        guard n <= remaining else {
            throw BinaryDecodingError(.truncated, at: offset, "needed \(n) bytes, only \(remaining) remain")
        }
        let start = position
        position += n
        return bytes[start..<position]
    }

    /// Reads an unsigned LEB128 varint (at most 10 bytes, shortest form only).
    package mutating func readVarUInt() throws(BinaryDecodingError) -> UInt64 {
        // Most varints in practice are one byte; keep that path tiny so it inlines.
        if position < end {
            let b = bytes[position]
            if b < 0x80 {
                position += 1
                return UInt64(b)
            }
        }
        return try readMultiByteVarUInt()
    }

    /// Reads a zigzag-encoded signed varint (see `ByteWriter.writeVarInt`).
    package mutating func readVarInt() throws(BinaryDecodingError) -> Int64 {
        let u = try readVarUInt()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// Reads 4 little-endian bytes.
    package mutating func readUInt32LE() throws(BinaryDecodingError) -> UInt32 {
        try readLittleEndian(UInt32.self)
    }

    /// Reads 8 little-endian bytes.
    package mutating func readUInt64LE() throws(BinaryDecodingError) -> UInt64 {
        try readLittleEndian(UInt64.self)
    }

    /// Reads a `T` stored as little-endian bytes.
    private mutating func readLittleEndian<T: FixedWidthInteger>(_: T.Type) throws(BinaryDecodingError) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else {
            throw BinaryDecodingError(.truncated, at: offset, "needed \(size) bytes for a \(T.self), only \(remaining) remain")
        }
        let p = position
        let v = bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: p, as: T.self)) }
        position = p + size
        return v
    }
}
