/// 64-bit FNV-1a, the one non-cryptographic hash of the package: asset checksums of local
/// files and the replica ids derived for plain-text notes (Docs/RECORD-FORMAT.md).
package struct FNV1a64: Sendable {
    /// The hash of everything added so far.
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// A hash of nothing.
    package init() {}

    /// Adds one byte.
    package mutating func add(byte b: UInt8) {
        value = (value ^ UInt64(b)) &* 0x0000_0100_0000_01B3
    }

    /// Adds bytes as they are (no length prefix).
    package mutating func add<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        for b in bytes { add(byte: b) }
    }

    /// The hash of `bytes` as 16 lowercase hex digits.
    package static func hex(_ bytes: [UInt8]) -> String {
        var h = FNV1a64()
        h.add(bytes: bytes)
        let hex = String(h.value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
