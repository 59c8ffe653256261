extension ByteReader {
    /// Outcome of scanning a multi-byte varint, computed without throwing inside the unsafe scope.
    enum VarintScan {
        case value(UInt64, length: Int)
        case truncated
        case overflow
        case nonMinimal
    }

    /// The general varint path: 2...10 bytes, with overflow, truncation and minimality checks.
    mutating func readMultiByteVarUInt() throws(BinaryDecodingError) -> UInt64 {
        let start = position
        let limit = end
        let scan: VarintScan = bytes.withUnsafeBufferPointer { buf in
            var result: UInt64 = 0
            var shift: UInt64 = 0
            var i = start
            while i < limit {
                let b = buf[i]
                let length = i - start + 1
                if length == 10 {
                    // The 10th byte holds only bit 63: anything above 1 (or a continuation bit) overflows.
                    guard b <= 1 else { return .overflow }
                }
                result |= UInt64(b & 0x7F) << shift
                if b < 0x80 {
                    if b == 0 && length > 1 { return .nonMinimal }
                    return .value(result, length: length)
                }
                shift += 7
                i += 1
            }
            return .truncated
        }
        switch scan {
        case let .value(v, length):
            position = start + length
            return v
        case .truncated:
            throw BinaryDecodingError(.truncated, at: absolute(start), "varint runs past the end of the input (\(limit - start) bytes remain)")
        case .overflow:
            throw BinaryDecodingError(.varintOverflow, at: absolute(start), "varint does not fit in 64 bits")
        case .nonMinimal:
            throw BinaryDecodingError(.nonMinimalVarint, at: absolute(start), "varint is not in its shortest form")
        }
    }
}
