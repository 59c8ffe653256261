import CRDTNoteSupport

/// The checksum this library gives assets it creates (before a store or CloudKit gives them
/// their own): 64-bit FNV-1a as 16 lowercase hex digits.
package enum AssetChecksum {
    /// The local checksum of `bytes`.
    package static func fnv1a64Hex(_ bytes: [UInt8]) -> String { FNV1a64.hex(bytes) }

    /// Whether `checksum` has our format (16 lowercase hex digits). CloudKit's checksums are
    /// base64 and longer, so they are never mistaken for ours.
    package static func isLocalChecksum(_ checksum: String) -> Bool {
        checksum.utf8.count == 16 && checksum.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
