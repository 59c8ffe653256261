import CRDTNoteSupport
import CRDTNote
/// Decompresses a gzip file one chunk at a time (at most the 96 KiB window each), so a reader can parse the
/// data without ever holding all of it: the memory used is a 96 KiB window, whatever the file's size.
///
/// Checks everything `Gzip.decompress` checks (headers, each member's CRC-32 and ISIZE, bytes
/// after the last member, the output limit); a member's checksums are verified after its last
/// chunk is handed out, so a reader must call `read()` until it returns an empty buffer.
///
/// ```swift
/// let total = try bytes.withUnsafeBufferPointer { (input) throws(BinaryDecodingError) in
///     var stream = GzipStream(bytes, input: input, maxOutputBytes: 64 << 20)
///     var n = 0
///     while case let chunk = try stream.read(), !chunk.isEmpty { n += chunk.count }
///     return n
/// }
/// ```
struct GzipStream {
    /// What comes next in the input.
    enum Phase {
        /// A member header (or, after the first member, the end of the input).
        case header
        /// The member's DEFLATE data.
        case body
        /// The member's CRC-32 and ISIZE.
        case trailer
        /// Everything was read and checked.
        case end
    }

    /// The compressed file, for header parsing (`input` points at the same bytes).
    let bytes: [UInt8]
    var inflater: Inflater
    var phase = Phase.header
    /// Index in the inflater's window up to which output has been handed out.
    var handedOut = 0
    /// CRC-32 and length of the current member's output so far.
    var memberCRC: UInt32 = 0
    var memberSize = 0
    var membersRead = 0
    /// Offset in `bytes` of the next header or trailer.
    var position = 0

    /// A stream over `bytes`; `input` must be `bytes`' own storage and stay valid while the
    /// stream is used (create it inside `bytes.withUnsafeBufferPointer`).
    init(_ bytes: [UInt8], input: UnsafeBufferPointer<UInt8>, maxOutputBytes: Int) {
        self.bytes = bytes
        self.inflater = Inflater(input: input, maxOutput: maxOutputBytes)
    }

    /// The next decompressed bytes; empty once the input is exhausted and every member checked.
    /// The buffer is valid until the next call.
    mutating func read() throws(BinaryDecodingError) -> UnsafeBufferPointer<UInt8> {
        while true {
            switch phase {
            case .end:
                return UnsafeBufferPointer(start: nil, count: 0)
            case .header:
                if membersRead > 0, position == bytes.count {
                    phase = .end
                    continue
                }
                try readHeader()
            case .body:
                handedOut -= inflater.makeRoom()
                if try inflater.inflateSome() { phase = .trailer }
                if handedOut < inflater.outCount {
                    let chunk = UnsafeBufferPointer(rebasing: inflater.window.bytes[handedOut..<inflater.outCount])
                    handedOut = inflater.outCount
                    memberCRC = CRC32.update(memberCRC, UnsafeRawBufferPointer(chunk))
                    memberSize += chunk.count
                    return chunk
                }
            case .trailer:
                try readTrailer()
            }
        }
    }

    /// Checks the magic number (or that bytes after a member are another member) and reads
    /// a member header; the inflater then starts on its DEFLATE data.
    mutating func readHeader() throws(BinaryDecodingError) {
        if membersRead == 0 {
            guard bytes.count >= 2 else {
                throw BinaryDecodingError(.truncated, at: bytes.count, "gzip data needs at least a 10-byte header, got \(bytes.count) bytes")
            }
            guard Gzip.isGzip(bytes) else {
                throw BinaryDecodingError(.badMagic, at: 0,
                    "not gzip data: starts with \(Gzip.hex(bytes[0])) \(Gzip.hex(bytes[1])), expected 1f 8b")
            }
        } else {
            guard bytes.count - position >= 2, bytes[position] == 0x1F, bytes[position + 1] == 0x8B else {
                throw BinaryDecodingError(.trailingBytes, at: position,
                    "\(bytes.count - position) bytes after the last gzip member are not another member")
            }
        }
        var header = ByteReader(bytes, range: position..<bytes.count)
        try Gzip.readHeader(&header, memberStart: position, bytes)
        inflater.startStream(at: header.offset)
        memberCRC = 0
        memberSize = 0
        phase = .body
    }

    /// Checks the member's CRC-32 and ISIZE against what was handed out.
    mutating func readTrailer() throws(BinaryDecodingError) {
        var trailer = ByteReader(bytes, range: inflater.bits.position..<bytes.count)
        let trailerOffset = trailer.offset
        let storedCRC = try trailer.readUInt32LE()
        let storedSize = try trailer.readUInt32LE()
        guard memberCRC == storedCRC else {
            throw BinaryDecodingError(.checksumMismatch, at: trailerOffset,
                "gzip member CRC-32 is \(Gzip.hex32(memberCRC)) but the trailer says \(Gzip.hex32(storedCRC))")
        }
        guard UInt32(truncatingIfNeeded: memberSize) == storedSize else {
            throw BinaryDecodingError(.checksumMismatch, at: trailerOffset + 4,
                "gzip member decompressed to \(memberSize) bytes but ISIZE says \(storedSize)")
        }
        position = trailer.offset
        membersRead += 1
        phase = .header
    }
}
