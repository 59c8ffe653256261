/// Counting helpers over UTF-8 that is already known to be valid (content the
/// document produced or validated). `scan` is the one loop that steps over scalars by
/// their lead bytes; everything that needs bytes, scalars and UTF-16 units of a stretch
/// of text (tree lookups, run splits, the snapshot and change-set decoders) calls it.
enum UTF8Counting {
    /// Where a scan stopped: the byte offset reached, and the scalars and UTF-16 units passed.
    struct Scan {
        var end: Int
        var scalars: Int
        var utf16: Int
    }

    /// Steps over whole scalars of `buffer` from byte `start` until `scalars` scalars or at
    /// least `utf16` UTF-16 units have been passed, or the buffer ends.
    @inline(__always)
    static func scan(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int,
                     scalars maximumScalars: Int = .max, utf16 maximumUTF16: Int = .max) -> Scan {
        var i = start
        var scalars = 0
        var utf16 = 0
        while scalars < maximumScalars && utf16 < maximumUTF16 && i < buffer.count {
            let lead = buffer[i]
            if lead < 0x80 { i += 1; utf16 += 1 }
            else if lead < 0xE0 { i += 2; utf16 += 1 }
            else if lead < 0xF0 { i += 3; utf16 += 1 }
            else { i += 4; utf16 += 2 }
            scalars += 1
        }
        return Scan(end: i, scalars: scalars, utf16: utf16)
    }

    /// `scan` over an array's storage.
    @inline(__always)
    static func scan(_ bytes: [UInt8], from start: Int,
                     scalars maximumScalars: Int = .max, utf16 maximumUTF16: Int = .max) -> Scan {
        bytes.withUnsafeBufferPointer { scan($0, from: start, scalars: maximumScalars, utf16: maximumUTF16) }
    }

    /// Bytes and UTF-16 units taken by the first `scalars` scalars of `bytes[start...]`.
    static func prefix(of bytes: [UInt8], start: Int, scalars: Int) -> (bytes: Int, utf16: Int) {
        let scan = scan(bytes, from: start, scalars: scalars)
        return (scan.end - start, scan.utf16)
    }

    /// Scalars and bytes covering the first `utf16Units` UTF-16 units of `bytes[start...]`,
    /// or nil when that offset falls inside a surrogate pair.
    static func scalarsForUTF16(_ bytes: [UInt8], start: Int, utf16Units: Int) -> (scalars: Int, bytes: Int)? {
        let scan = scan(bytes, from: start, utf16: utf16Units)
        return scan.utf16 == utf16Units ? (scan.scalars, scan.end - start) : nil
    }

    /// Scalars and UTF-16 units in a UTF-8 buffer.
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

extension UTF8Counting {
    /// The offset of the last newline byte (0x0A) in `buffer[lower..<upper]`, nil when there is
    /// none: eight bytes a step (a newline byte is never part of a multi-byte scalar, so any
    /// 0x0A byte is a newline). Paragraph lookups scan back over whole paragraphs with it.
    @inline(__always)
    static func lastNewline(in buffer: UnsafeBufferPointer<UInt8>, from lower: Int, to upper: Int) -> Int? {
        guard let base = buffer.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        var end = upper
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while end - lower >= 8 {
            // Bytes equal to 0x0A become 0; the 0x80 bit of each byte that is 0 is then set
            // exactly (no carry crosses bytes: each byte's low seven bits are added apart).
            let x = raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self).littleEndian ^ 0x0A0A_0A0A_0A0A_0A0A
            let zero = ~(((x & low7) &+ low7) | x | low7)
            if zero != 0 { return end - 8 + (63 - zero.leadingZeroBitCount) / 8 }
            end -= 8
        }
        while end > lower {
            end -= 1
            if buffer[end] == 0x0A { return end }
        }
        return nil
    }
}
