import CRDTNoteSupport
import CRDTNote
/// The zlib/IEEE 802.3 CRC-32 (reflected polynomial 0xEDB88320) that gzip stores in each member trailer.
/// Check value: `CRC32.checksum(Array("123456789".utf8)) == 0xCBF43926`.
enum CRC32 {
    static let tables = CRCSlicingTables(reflectedPolynomial: 0xEDB88320)

    /// The CRC-32 of `bytes`.
    static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        tables.checksum(bytes)
    }

    /// Extends `crc` (checksum of earlier bytes, 0 for none) with `bytes`.
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        tables.update(crc, bytes)
    }
}
