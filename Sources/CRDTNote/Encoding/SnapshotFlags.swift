/// Per-run flag byte of the snapshot's run table (Docs/FORMAT.md, "Runs").
enum SnapshotFlags {
    static let deleted: UInt8 = 1 << 0
    static let explicitReplica: UInt8 = 1 << 1
    /// Bits 2-3: how the left origin is stored.
    static let leftShift: UInt8 = 2
    static let leftPreviousElement: UInt8 = 0
    static let leftNone: UInt8 = 1
    static let leftExplicit: UInt8 = 2
    static let leftSameReplicaPredecessor: UInt8 = 3
    static let leftModes = SnapshotDecoder.LeftModes(previousElement: leftPreviousElement, none: leftNone, ownPredecessor: leftSameReplicaPredecessor)
    /// Bits 4-5: how the right origin is stored.
    static let rightShift: UInt8 = 4
    static let rightNone: UInt8 = 0
    static let rightNextElement: UInt8 = 1
    static let rightSameAsPrevious: UInt8 = 2
    static let rightExplicit: UInt8 = 3
    /// Bits 6-7 must be zero in format version 1.
    static let reservedMask: UInt8 = 0xC0
}
