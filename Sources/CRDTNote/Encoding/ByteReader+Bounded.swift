extension ByteReader {
    /// Reads a varuint that must be `<= max`, returned as `Int`; `what` names the field in the error.
    package mutating func readVarUInt(max: UInt64, _ what: String) throws(BinaryDecodingError) -> Int {
        let start = position
        let v = try readVarUInt()
        let bound = Swift.min(max, UInt64(Int.max))
        guard v <= bound else {
            position = start
            throw BinaryDecodingError(.invalidValue, at: absolute(start), "\(what) \(v) exceeds maximum \(bound)")
        }
        return Int(v)
    }

    /// Reads an element count that cannot exceed `remaining / minimumBytesEach`, so an inflated count
    /// is rejected before anything is allocated for it. `minimumBytesEach` below 1 is treated as 1.
    package mutating func readCount(_ what: String, minimumBytesEach: Int) throws(BinaryDecodingError) -> Int {
        let start = position
        let v = try readVarUInt()
        let each = Swift.max(minimumBytesEach, 1)
        let room = remaining / each
        guard v <= UInt64(room) else {
            position = start
            throw BinaryDecodingError(.lengthTooLarge, at: absolute(start),
                "count \(v) of \(what) needs at least \(each) bytes each, only \(remaining) bytes remain")
        }
        return Int(v)
    }

    /// ``readCount(_:minimumBytesEach:)`` that also refuses (`lengthTooLarge`, at the count) a
    /// count above `limit`, a decoding limit the caller names as `limitName`.
    package mutating func readCount(_ what: String, minimumBytesEach: Int, limit: Int) throws(BinaryDecodingError) -> Int {
        let start = position
        let count = try readCount(what, minimumBytesEach: minimumBytesEach)
        guard count <= limit else {
            throw BinaryDecodingError(.lengthTooLarge, at: absolute(start), "\(count) \(what) exceed the limit of \(limit)")
        }
        return count
    }

    /// Reads a varuint length and then that many bytes (as a slice of the input, no copy).
    package mutating func readLengthPrefixed(_ what: String) throws(BinaryDecodingError) -> ArraySlice<UInt8> {
        let start = position
        let n = try readVarUInt()
        guard n <= UInt64(remaining) else {
            let left = remaining
            position = start
            throw BinaryDecodingError(.lengthTooLarge, at: absolute(start), "length \(n) of \(what) exceeds remaining \(left) bytes")
        }
        let from = position
        position += Int(n)
        return bytes[from..<position]
    }

    /// Returns a reader over the next `length` bytes (offsets stay absolute) and skips past them.
    package mutating func subReader(length: Int, _ what: String) throws(BinaryDecodingError) -> ByteReader {
        guard length >= 0, length <= remaining else {
            throw BinaryDecodingError(length < 0 ? .invalidValue : .lengthTooLarge, at: offset,
                "length \(length) of \(what) exceeds remaining \(remaining) bytes")
        }
        let sub = ByteReader(bytes, range: position..<(position + length), baseOffset: baseOffset, pinned: pinned)
        position += length
        return sub
    }

    /// Throws `.trailingBytes` unless every byte has been read; `what` names the enclosing value.
    package func expectEnd(_ what: String) throws(BinaryDecodingError) {
        guard isAtEnd else {
            throw BinaryDecodingError(.trailingBytes, at: offset, "\(remaining) unexpected bytes after \(what)")
        }
    }
}
