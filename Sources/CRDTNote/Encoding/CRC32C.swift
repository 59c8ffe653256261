/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum used by iSCSI and ext4 and by
/// crdtnote's binary format to detect corrupted records.
///
/// Uses slicing-by-8 tables built once. Check value: `CRC32C.checksum(Array("123456789".utf8)) == 0xE3069283`.
///
/// ```swift
/// var crc: UInt32 = 0
/// header.withUnsafeBytes { crc = CRC32C.update(crc, $0) }
/// body.withUnsafeBytes { crc = CRC32C.update(crc, $0) }   // == CRC32C.checksum(header + body)
/// ```
package enum CRC32C {
    static let tables = CRCSlicingTables(reflectedPolynomial: 0x82F63B78)

    /// The CRC-32C of `bytes`.
    package static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        tables.checksum(bytes)
    }

    /// Extends `crc`, the checksum of earlier bytes (0 for none), with `bytes`; chaining calls gives the
    /// same result as one `checksum` over the concatenation.
    package static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        tables.update(crc, bytes)
    }
}
