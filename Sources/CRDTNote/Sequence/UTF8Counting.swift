/// Counting helpers over UTF-8 that is already known to be valid (content the
/// document produced or validated).
@usableFromInline
enum UTF8Counting {
    /// Bytes and UTF-16 units taken by the first `scalars` scalars of `bytes[start...]`.
    @inlinable
    static func prefix(of bytes: [UInt8], start: Int, scalars: Int) -> (bytes: Int, utf16: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            var i = start
            var utf16 = 0
            var remaining = scalars
            while remaining > 0 {
                let lead = buffer[i]
                if lead < 0x80 { i += 1; utf16 += 1 }
                else if lead < 0xE0 { i += 2; utf16 += 1 }
                else if lead < 0xF0 { i += 3; utf16 += 1 }
                else { i += 4; utf16 += 2 }
                remaining -= 1
            }
            return (i - start, utf16)
        }
    }

    /// Scalars and bytes covering the first `utf16Units` UTF-16 units of `bytes[start..<end]`,
    /// or nil when that offset falls inside a surrogate pair.
    @inlinable
    static func scalarsForUTF16(_ bytes: [UInt8], start: Int, utf16Units: Int) -> (scalars: Int, bytes: Int)? {
        bytes.withUnsafeBufferPointer { buffer in
            var i = start
            var units = 0
            var scalars = 0
            while units < utf16Units {
                let lead = buffer[i]
                if lead < 0x80 { i += 1; units += 1 }
                else if lead < 0xE0 { i += 2; units += 1 }
                else if lead < 0xF0 { i += 3; units += 1 }
                else { i += 4; units += 2 }
                scalars += 1
            }
            return units == utf16Units ? (scalars, i - start) : nil
        }
    }

    /// Scalars and UTF-16 units in a UTF-8 buffer.
    @inlinable
    static func counts<C: Collection>(_ bytes: C) -> (scalars: Int, utf16: Int) where C.Element == UInt8 {
        var scalars = 0
        var utf16 = 0
        for b in bytes where b & 0xC0 != 0x80 {
            scalars += 1
            utf16 += b >= 0xF0 ? 2 : 1
        }
        return (scalars, utf16)
    }
}
