extension TextAnchor {
    /// First byte of ``encoded``: what follows.
    enum Tag: UInt8 {
        case start = 0, end = 1, before = 2, after = 3
    }

    /// The anchor as a few bytes: a tag (start, end, before, after), then for a character its
    /// replica id and sequence number as unsigned LEB128 varints. 1 byte for ``start``/``end``;
    /// at most 16 bytes otherwise.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        func varint(_ value: UInt64) {
            var v = value
            while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
            out.append(UInt8(v))
        }
        switch target {
        case .start: out.append(Tag.start.rawValue)
        case .end: out.append(Tag.end.rawValue)
        case .character(let replica, let seq):
            out.append(bias == .before ? Tag.before.rawValue : Tag.after.rawValue)
            varint(replica.rawValue)
            varint(UInt64(seq))
        }
        return out
    }

    /// Reads an anchor written by ``encoded``. Throws on an unknown tag, a truncated or
    /// non-minimal varint, a sequence number beyond 32 bits, or bytes after the anchor.
    public init(encoded bytes: [UInt8]) throws(BinaryDecodingError) {
        var reader = ByteReader(bytes)
        let tagByte = try reader.readByte()
        guard let tag = Tag(rawValue: tagByte) else {
            throw BinaryDecodingError(.invalidValue, at: 0, "unknown text anchor tag \(tagByte)")
        }
        switch tag {
        case .start: self = .start
        case .end: self = .end
        case .before, .after:
            let replica = try reader.readVarUInt()
            let seqOffset = reader.offset
            let seq = try reader.readVarUInt()
            guard let seq32 = UInt32(exactly: seq) else {
                throw BinaryDecodingError(.invalidValue, at: seqOffset, "text anchor sequence number \(seq) exceeds 32 bits")
            }
            self.init(target: .character(replica: ReplicaID(rawValue: replica), seq: seq32),
                      bias: tag == .before ? .before : .after)
        }
        guard reader.isAtEnd else {
            throw BinaryDecodingError(.trailingBytes, at: reader.offset, "\(reader.remaining) bytes after the text anchor")
        }
    }
}
