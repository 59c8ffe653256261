import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

@Suite struct CRC32CTests {
    @Test func knownVectors() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE3069283)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A9136AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8AB43)
        // iSCSI (RFC 3720 B.4): 32 bytes ascending 0...31.
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD794E)
        #expect(CRC32C.checksum([UInt8]()) == 0)
    }

    @Test func gzipCRC32CheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF43926)
    }

    @Test func slicesAndNonContiguousCollectionsMatchArrays() {
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let expected = CRC32C.checksum(data)
        #expect(CRC32C.checksum(data[0...]) == expected)
        #expect(CRC32C.checksum(data.lazy.map { $0 }) == expected)
        #expect(CRC32C.checksum(data[3..<997]) == CRC32C.checksum(Array(data[3..<997])))
    }

    @Test func incrementalUpdateEqualsOneShotAtEverySplit() {
        let data = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
        let oneShot = CRC32C.checksum(data)
        for split in 0...data.count {
            var crc: UInt32 = 0
            data[0..<split].withUnsafeBytes { crc = CRC32C.update(crc, $0) }
            data[split...].withUnsafeBytes { crc = CRC32C.update(crc, $0) }
            #expect(crc == oneShot, "split at \(split)")
        }
    }

    /// Slicing-by-8 must agree with the plain bit-at-a-time definition at every length and alignment.
    @Test func matchesBitwiseDefinition() {
        func bitwise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F63B78 : c >> 1 }
            }
            return ~c
        }
        let data = (0..<80).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 5) }
        for start in 0..<8 {
            for end in start...data.count {
                #expect(CRC32C.checksum(data[start..<end]) == bitwise(data[start..<end]))
            }
        }
    }
}
