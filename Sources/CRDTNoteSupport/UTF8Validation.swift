/// Strict UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF)
/// for text arriving from other devices.
package enum UTF8Validation {
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
            let need: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; upper = 0x9F
            case 0xF0: need = 3; lower = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; upper = 0x8F
            default: return i
            }
            guard end - i > need else { return i }
            let second = bytes[i + 1]
            if second < lower || second > upper { return i + 1 }
            for k in 2..<(need + 1) where bytes[i + k] & 0xC0 != 0x80 { return i + k }
            i += need + 1
        }
        return nil
    }
}
