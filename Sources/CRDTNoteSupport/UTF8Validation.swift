/// Strict UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF)
/// for text arriving from other devices.
package enum UTF8Validation {
    /// What a lead byte (>= 0x80) starts: how many continuation bytes follow, and the range the
    /// first of them must be in (narrower after E0, ED, F0 and F4, which rules out overlong forms,
    /// surrogates and code points past U+10FFFF); nil when the byte cannot start a sequence.
    @inlinable @inline(__always)
    package static func sequence(startingWith b: UInt8) -> (continuations: Int, low: UInt8, high: UInt8)? {
        switch b {
        case 0xC2...0xDF: return (1, 0x80, 0xBF)
        case 0xE0: return (2, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: return (2, 0x80, 0xBF)
        case 0xED: return (2, 0x80, 0x9F)
        case 0xF0: return (3, 0x90, 0xBF)
        case 0xF1...0xF3: return (3, 0x80, 0xBF)
        case 0xF4: return (3, 0x80, 0x8F)
        default: return nil
        }
    }

    /// Returns nil when valid, else the index (in the slice's own indices) of the first bad byte.
    package static func firstInvalidByte(_ bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            firstInvalidByte(in: buffer).map { bytes.startIndex + $0 }
        }
    }

    /// Returns nil when valid, else the offset from the buffer's start of the first bad byte.
    /// One non-generic loop over raw memory: this runs over every payload's text.
    package static func firstInvalidByte(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            guard let (need, lower, upper) = sequence(startingWith: b) else { return i }
            guard end - i > need else { return i }
            let second = bytes[i + 1]
            if second < lower || second > upper { return i + 1 }
            for k in 2..<(need + 1) where bytes[i + k] & 0xC0 != 0x80 { return i + k }
            i += need + 1
        }
        return nil
    }
}
