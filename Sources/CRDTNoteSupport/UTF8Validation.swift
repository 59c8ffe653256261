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

    /// What ``validateAndCount(in:)`` found: the first bad byte (nil when valid) and, for valid
    /// text, its length in Unicode scalars and in UTF-16 code units.
    package struct Counts: Sendable, Hashable {
        /// Offset of the first bad byte from the buffer's start, nil when the text is valid.
        package var firstInvalidByte: Int?
        /// Unicode scalars (counted up to the first bad byte).
        package var scalars: Int
        /// UTF-16 code units (counted up to the first bad byte).
        package var utf16: Int
    }

    /// Validates like ``firstInvalidByte(in:)`` and counts scalars and UTF-16 units in the same
    /// pass; runs of ASCII are stepped over eight bytes at a time.
    package static func validateAndCount(in bytes: UnsafeBufferPointer<UInt8>) -> Counts {
        var i = 0
        let end = bytes.count
        var scalars = 0
        var astral = 0
        guard let base = bytes.baseAddress else { return Counts(firstInvalidByte: nil, scalars: 0, utf16: 0) }
        let raw = UnsafeRawPointer(base)
        while i < end {
            if end - i >= 8 && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                scalars += 8
                continue
            }
            let b = bytes[i]
            if b < 0x80 { i += 1; scalars += 1; continue }
            guard let (need, lower, upper) = sequence(startingWith: b), end - i > need else {
                return Counts(firstInvalidByte: i, scalars: scalars, utf16: scalars + astral)
            }
            let second = bytes[i + 1]
            if second < lower || second > upper {
                return Counts(firstInvalidByte: i + 1, scalars: scalars, utf16: scalars + astral)
            }
            for k in 2..<(need + 1) where bytes[i + k] & 0xC0 != 0x80 {
                return Counts(firstInvalidByte: i + k, scalars: scalars, utf16: scalars + astral)
            }
            if need == 3 { astral += 1 }
            scalars += 1
            i += need + 1
        }
        return Counts(firstInvalidByte: nil, scalars: scalars, utf16: scalars + astral)
    }
}
