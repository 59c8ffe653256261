
/// Issue 12's payload bomb: a 47-byte snapshot declaring one replica with `ids` ids (2^26 by
/// default) and one deleted run covering them all, with no text. Built by hand, so the test does
/// not depend on the encoder ever writing such a thing.
public enum PayloadBomb {
    public static func snapshot(ids: UInt64 = 1 << 26, replica: UInt64 = 0x1234) -> [UInt8] {
        func varuint(_ v: UInt64) -> [UInt8] {
            var v = v
            var out: [UInt8] = []
            while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
            out.append(UInt8(v))
            return out
        }
        var body: [UInt8] = varuint(1)
        for k in 0..<8 { body.append(UInt8(truncatingIfNeeded: replica >> (8 * UInt64(k)))) }
        body += varuint(ids) + varuint(0) + varuint(0)   // id count, latest stamp, no clock log
        body += varuint(0)                                // no text
        body += varuint(1)                                // one run
        body += varuint(1) + [0x05]                        // flags: deleted, no left origin, no right origin
        body += varuint(0)                                // replica column
        body += varuint(1) + varuint(0)                   // sequence column
        let length = varuint(ids - 1)
        body += varuint(UInt64(length.count)) + length    // length column
        body += varuint(0) + varuint(0)                   // origin columns
        // Header: "CRNT", format 1, reader 1, kind snapshot, flags 0, body length, CRC-32C.
        var out: [UInt8] = [0x43, 0x52, 0x4E, 0x54, 1, 0, 1, 0, 1, 0]
        for v in [UInt32(body.count), crc32c(body)] {
            for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(k)))) }
        }
        return out + body
    }

    /// CRC-32C (Castagnoli), bit by bit: small inputs only.
    public static func crc32c(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }
}
