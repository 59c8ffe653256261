/// Patches stored column by column: positions, delete counts, and every inserted text in one
/// UTF-8 buffer with the end offset of each patch's text. About 13 bytes per patch plus the
/// text itself, where a `TracePatch` with its own `String` takes 32: for a 260k-patch trace,
/// 3.5 MB instead of 8.
struct TracePatchColumns: Sendable, Hashable {
    var positions = IntColumn()
    var deleteCounts = IntColumn()
    /// End of each patch's text in `text`; it starts where the previous patch's text ends.
    var textEnds = IntColumn()
    /// The inserted texts, one after another; each is valid UTF-8 (checked when read).
    var text: [UInt8] = []

    /// An empty list of patches.
    init() {}

    /// Number of patches.
    var count: Int { positions.count }

    /// Appends a patch whose inserted text was just appended to `text`.
    mutating func appendPatch(position: Int, deleteCount: Int) {
        positions.append(position)
        deleteCounts.append(deleteCount)
        textEnds.append(text.count)
    }

    /// Appends `patch`.
    mutating func append(_ patch: TracePatch) {
        text.append(contentsOf: patch.insert.utf8)
        appendPatch(position: patch.position, deleteCount: patch.deleteCount)
    }

    /// The range of `text` holding patch `index`'s inserted text.
    @inline(__always)
    func textRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : textEnds[index - 1])..<textEnds[index]
    }

    /// The text patch `index` inserts. Empty and one-ASCII-character texts (most of them) come
    /// from a table and allocate nothing.
    @inline(__always)
    func insert(_ index: Int) -> String {
        let range = textRange(index)
        if range.isEmpty { return "" }
        if range.count == 1, text[range.lowerBound] < 0x80 { return TracePatchColumns.asciiStrings[Int(text[range.lowerBound])] }
        return text.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Patch `index`.
    func patch(_ index: Int) -> TracePatch {
        TracePatch(position: positions[index], deleteCount: deleteCounts[index], insert: insert(index))
    }

    /// The 128 one-character ASCII strings.
    static let asciiStrings: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
}

/// A read-only view of some of a sequential trace's patches (a transaction, or all of them),
/// making each ``TracePatch`` when it is read.
public struct TracePatchList: RandomAccessCollection, Sendable {
    let columns: TracePatchColumns
    /// Indexes of the patches in view; also this collection's indexes.
    let range: Range<Int>

    init(_ columns: TracePatchColumns, _ range: Range<Int>) {
        self.columns = columns
        self.range = range
    }

    public var startIndex: Int { range.lowerBound }
    public var endIndex: Int { range.upperBound }
    public subscript(position: Int) -> TracePatch { columns.patch(position) }
    public subscript(bounds: Range<Int>) -> TracePatchList { TracePatchList(columns, bounds) }
}
