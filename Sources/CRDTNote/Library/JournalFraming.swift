/// The journal file: a 16-byte header, then frames of `[body length: UInt32 LE][CRC-32C of the
/// body: UInt32 LE][body]`, one per ``JournalEntry``, appended and never rewritten.
enum JournalFraming {
    /// "CRNJ".
    static let magic: [UInt8] = [0x43, 0x52, 0x4E, 0x4A]
    static let headerSize = 16
    static let frameHeaderSize = 8
    /// Most bytes of one entry's body: a change set of a whole note at the payload limit.
    static let maximumBody = NoteLimits.default.maximumAssetBytes + 4096

    /// The header of the journal of `generation`.
    static func header(generation: UInt64) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: headerSize)
        out.writeBytes(magic)
        out.writeUInt32LE(UInt32(LibraryFormat.version) | UInt32(LibraryFormat.minimumReader) << 16)
        out.writeUInt64LE(generation)
        return out.bytes
    }

    /// `body` framed for appending.
    static func frame(_ body: [UInt8]) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: frameHeaderSize + body.count)
        out.writeUInt32LE(UInt32(body.count))
        out.writeUInt32LE(CRC32C.checksum(body))
        out.writeBytes(body)
        return out.bytes
    }

    /// Checks the header: the journal of `generation`, readable by this library.
    static func checkHeader(_ bytes: [UInt8], generation: UInt64) throws(LibraryFileError) {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic else {
            throw .damaged("not a note library journal (bad magic or shorter than its header)")
        }
        var reader = ByteReader(bytes, range: 4..<headerSize)
        do {
            let versions = try reader.readUInt32LE()
            let minimumReader = UInt16(versions >> 16)
            if minimumReader > LibraryFormat.version { throw LibraryFileError.newer(minimumReader) }
            let stored = try reader.readUInt64LE()
            guard stored == generation else {
                throw LibraryFileError.damaged("journal of generation \(stored), the index names \(generation)")
            }
        } catch let error as LibraryFileError {
            throw error
        } catch {
            throw .damaged("journal header: \(error)")
        }
    }

    /// What scanning a journal found: its sound frames (body ranges), where the sound part
    /// ends, and why the rest (if any) was not read.
    struct Scan {
        var bodies: [Range<Int>] = []
        var end: Int
        /// Why the bytes from `end` on are not frames: a frame running past the end of the file
        /// (a write cut short) or a checksum that does not match (a torn write).
        var tornTail: String?
    }

    /// Reads frames from `start` until the end of `bytes` or the first frame that is not sound.
    static func scan(_ bytes: [UInt8], from start: Int) -> Scan {
        var scan = Scan(end: start)
        var at = start
        while at < bytes.count {
            guard bytes.count - at >= frameHeaderSize else {
                scan.tornTail = "\(bytes.count - at) bytes at offset \(at) are shorter than a frame header"
                break
            }
            let length = Int(readUInt32(bytes, at))
            let crc = readUInt32(bytes, at + 4)
            let bodyStart = at + frameHeaderSize
            guard length <= maximumBody, length <= bytes.count - bodyStart else {
                scan.tornTail = "the frame at offset \(at) declares \(length) bytes, \(bytes.count - bodyStart) follow"
                break
            }
            let body = bodyStart..<bodyStart + length
            guard CRC32C.checksum(bytes[body]) == crc else {
                scan.tornTail = "the frame at offset \(at) fails its checksum"
                break
            }
            scan.bodies.append(body)
            at = body.upperBound
            scan.end = at
        }
        return scan
    }

    private static func readUInt32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}

/// A problem with one of the library's files, before the path is attached.
enum LibraryFileError: Error {
    /// Written by a library format needing reader `minimumReader`.
    case newer(UInt16)
    /// Damaged: what is wrong.
    case damaged(String)
}
