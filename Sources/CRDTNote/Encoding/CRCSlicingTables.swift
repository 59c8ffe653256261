/// Slicing-by-8 lookup tables for a reflected 32-bit CRC, shared by CRC-32C and the gzip CRC-32.
///
/// Table `k` (entries `k*256 ..< (k+1)*256`) gives the CRC contribution of a byte followed by `k`
/// zero bytes, so eight input bytes are folded in with eight lookups and no per-bit work.
package struct CRCSlicingTables: Sendable {
    package let table: [UInt32]

    /// Builds the tables for the reflected polynomial `polynomial` (e.g. 0x82F63B78).
    package init(reflectedPolynomial polynomial: UInt32) {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ polynomial : c >> 1 }
            t[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let prev = t[(k - 1) * 256 + n]
                t[k * 256 + n] = (prev >> 8) ^ t[Int(prev & 0xFF)]
            }
        }
        table = t
    }

    /// Continues a CRC: `crc` is a finished checksum of earlier bytes (0 for none); returns the
    /// finished checksum of those bytes followed by `bytes`.
    package func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        return table.withUnsafeBufferPointer { t -> UInt32 in
            var c = ~crc
            var i = 0
            let n = bytes.count
            while n - i >= 8 {
                let word = UInt64(littleEndian: (base + i).loadUnaligned(as: UInt64.self))
                let lo = UInt32(truncatingIfNeeded: word) ^ c
                let hi = UInt32(truncatingIfNeeded: word >> 32)
                c = t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                i += 8
            }
            while i < n {
                let b = base.load(fromByteOffset: i, as: UInt8.self)
                c = (c >> 8) ^ t[Int((c ^ UInt32(b)) & 0xFF)]
                i += 1
            }
            return ~c
        }
    }

    /// Checksum of any byte collection, using contiguous storage directly when the collection has it.
    package func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        if let crc = bytes.withContiguousStorageIfAvailable({ update(0, UnsafeRawBufferPointer($0)) }) {
            return crc
        }
        return Array(bytes).withUnsafeBytes { update(0, $0) }
    }
}
