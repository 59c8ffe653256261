/// A growable list of integers that takes 4 bytes per value while every value is in
/// `0...UInt32.max` (always, for real traces) and 8 bytes per value from the first one outside.
struct IntColumn: Sendable, Hashable {
    private var narrow: [UInt32] = []
    private var wide: [Int] = []
    /// Whether values are kept in `wide` (some value did not fit 32 unsigned bits).
    private var isWide = false

    /// An empty column.
    init() {}

    /// Number of values.
    var count: Int { isWide ? wide.count : narrow.count }

    /// The value at `index` (`0..<count`).
    @inline(__always)
    subscript(index: Int) -> Int { isWide ? wide[index] : Int(narrow[index]) }

    /// Appends `value`, widening the column when it does not fit 32 unsigned bits.
    mutating func append(_ value: Int) {
        if !isWide {
            if let small = UInt32(exactly: value) {
                narrow.append(small)
                return
            }
            wide = narrow.map { Int($0) }
            narrow = []
            isWide = true
        }
        wide.append(value)
    }

    /// Reserves room for `n` values in all.
    mutating func reserveCapacity(_ n: Int) {
        if isWide { wide.reserveCapacity(n) } else { narrow.reserveCapacity(n) }
    }

    /// Every value, as `Int`s.
    var values: [Int] { isWide ? wide : narrow.map { Int($0) } }
}
