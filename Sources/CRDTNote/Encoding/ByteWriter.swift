/// An append-only byte buffer for building crdtnote's binary format.
///
/// Integers are written as unsigned LEB128 varints (`writeVarUInt`), zigzag varints (`writeVarInt`)
/// or fixed-width little-endian words. `ByteReader` reads them back.
///
/// ```swift
/// var w = ByteWriter()
/// w.writeUInt32LE(0)                 // placeholder for the body length
/// w.writeVarUInt(300)
/// w.writeLengthPrefixed(Array("hi".utf8))
/// w.patchUInt32LE(UInt32(w.count - 4), at: 0)
/// ```
package struct ByteWriter: Sendable {
    /// Backing store.
    var storage: [UInt8]

    /// The bytes written so far.
    package var bytes: [UInt8] { storage }

    /// Creates an empty writer, optionally reserving room for `reservingCapacity` bytes.
    package init(reservingCapacity: Int = 0) {
        storage = []
        if reservingCapacity > 0 { storage.reserveCapacity(reservingCapacity) }
    }

    /// Number of bytes written so far.
    package var count: Int { storage.count }

    /// Appends one byte.
    package mutating func writeByte(_ b: UInt8) {
        storage.append(b)
    }

    /// Appends the bytes of `c`; contiguous collections (`[UInt8]`, `ArraySlice`) are copied in one step.
    package mutating func writeBytes<C: Collection>(_ c: C) where C.Element == UInt8 {
        let done: Void? = c.withContiguousStorageIfAvailable { buffer in
            storage.append(contentsOf: buffer)
        }
        if done == nil { storage.append(contentsOf: c) }
    }

    /// Appends `v` as an unsigned LEB128 varint: 7 bits per byte, low bits first, high bit = "more follows".
    /// Always the shortest form, which `ByteReader.readVarUInt` requires.
    package mutating func writeVarUInt(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            storage.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        storage.append(UInt8(truncatingIfNeeded: v))
    }

    /// Appends `v` zigzag-encoded (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...) so small negatives stay short.
    package mutating func writeVarInt(_ v: Int64) {
        writeVarUInt(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    /// Appends `v` as 4 little-endian bytes.
    package mutating func writeUInt32LE(_ v: UInt32) {
        storage.append(UInt8(truncatingIfNeeded: v))
        storage.append(UInt8(truncatingIfNeeded: v >> 8))
        storage.append(UInt8(truncatingIfNeeded: v >> 16))
        storage.append(UInt8(truncatingIfNeeded: v >> 24))
    }

    /// Appends `v` as 8 little-endian bytes.
    package mutating func writeUInt64LE(_ v: UInt64) {
        writeUInt32LE(UInt32(truncatingIfNeeded: v))
        writeUInt32LE(UInt32(truncatingIfNeeded: v >> 32))
    }

    /// Appends the varuint length of `bytes` followed by the bytes themselves.
    package mutating func writeLengthPrefixed(_ bytes: [UInt8]) {
        writeVarUInt(UInt64(bytes.count))
        storage.append(contentsOf: bytes)
    }

    /// Overwrites 4 already-written bytes at `offset` with `v` little-endian; used for headers whose
    /// body length is only known after the body is written.
    ///
    /// - Precondition: `offset >= 0 && offset + 4 <= count` (a programming error otherwise, never input-driven).
    package mutating func patchUInt32LE(_ v: UInt32, at offset: Int) {
        precondition(offset >= 0 && offset <= storage.count - 4, "patchUInt32LE offset \(offset) outside written bytes (\(storage.count))")
        storage[offset] = UInt8(truncatingIfNeeded: v)
        storage[offset + 1] = UInt8(truncatingIfNeeded: v >> 8)
        storage[offset + 2] = UInt8(truncatingIfNeeded: v >> 16)
        storage[offset + 3] = UInt8(truncatingIfNeeded: v >> 24)
    }
}
