import CRDTNoteSupport
import CRDTNote
/// Why reading a trace's bytes failed: its JSON, or (for a gzipped file) its compression.
enum TraceReadError: Error {
    case json(JSONParseError)
    case gzip(BinaryDecodingError)
}

/// A position in the JSON, enough to report a line and column later without rescanning.
struct TraceJSONMark {
    /// Byte offset from the start of the JSON.
    var offset: Int
    /// 1-based line of `offset`.
    var line: Int
    /// Offset of the first byte of that line.
    var lineStart: Int
}

/// The bytes of a trace's JSON, one chunk at a time: the whole buffer for plain JSON, or what a
/// ``GzipStream`` inflated last, so at most one 96 KiB window of a gzipped trace is held.
///
/// Counts lines as whitespace newlines go by (JSON has no raw newline anywhere else), so errors
/// can say line and column without keeping the text they refer to.
struct TraceJSONSource {
    /// The current chunk; `index` is the next unread byte in it.
    var chunk: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Offset of `chunk[0]` in the whole JSON.
    var chunkOffset = 0
    /// Where further chunks come from (nil: `chunk` is everything).
    var gzip: GzipStream?
    var line = 1
    var lineStart = 0

    /// Plain JSON, all in `bytes` (a UTF-8 byte order mark at the start is skipped).
    init(bytes: UnsafeBufferPointer<UInt8>) {
        chunk = bytes
        gzip = nil
    }

    /// JSON inflated from `stream` as it is read.
    init(gzip stream: GzipStream) {
        chunk = UnsafeBufferPointer(start: nil, count: 0)
        gzip = stream
    }

    /// Offset of the next unread byte.
    var offset: Int { chunkOffset + index }

    /// The current position, for errors reported later.
    var mark: TraceJSONMark { TraceJSONMark(offset: offset, line: line, lineStart: lineStart) }

    /// The next byte without consuming it; nil at the end of the input.
    @inline(__always)
    mutating func peek() throws(TraceReadError) -> UInt8? {
        if index < chunk.count { return chunk[index] }
        return try nextChunk()
    }

    /// Consumes the byte `peek()` returned.
    @inline(__always)
    mutating func advance() { index += 1 }

    /// Consumes a newline byte `peek()` returned, counting the line.
    mutating func advanceNewline() {
        index += 1
        line += 1
        lineStart = offset
    }

    /// Moves to the next chunk; its first byte, or nil at the end (after the gzip trailer checks).
    mutating func nextChunk() throws(TraceReadError) -> UInt8? {
        while index >= chunk.count {
            guard gzip != nil else { return nil }
            let next: UnsafeBufferPointer<UInt8>?
            do {
                next = try gzip?.read()
            } catch {
                throw .gzip(error)
            }
            guard let next, !next.isEmpty else {
                gzip = nil
                return nil
            }
            chunkOffset += chunk.count
            chunk = next
            index = 0
        }
        return chunk[index]
    }

    /// An error at `mark` (default: the current position).
    func error(_ message: String, at mark: TraceJSONMark? = nil) -> TraceReadError {
        let m = mark ?? self.mark
        return .json(JSONParseError(message: message, offset: m.offset, line: m.line, column: m.offset - m.lineStart + 1))
    }
}
