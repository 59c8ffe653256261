/// The inflater's output memory: a fixed block holding the last 32 KiB of output (the most a
/// DEFLATE back-reference can reach) plus room for the next chunk.
///
/// A class so that the storage never moves while a reader holds a pointer into it: the bytes
/// handed out by `GzipStream.read()` stay valid until the next call, when the window slides.
final class InflateWindow {
    /// How far back a DEFLATE match may reach (RFC 1951 section 2.2).
    static let historySize = 32 * 1024
    /// New output decoded between two slides: the size of the chunks a reader sees (the first
    /// chunk of a stream may also fill the history part).
    static let chunkSize = 64 * 1024

    /// `historySize + chunkSize + Inflater.maxMatch` bytes, allocated once.
    let bytes: UnsafeMutableBufferPointer<UInt8>

    init() {
        bytes = .allocate(capacity: Self.historySize + Self.chunkSize + Inflater.maxMatch)
        bytes.initialize(repeating: 0)
    }

    deinit { bytes.deallocate() }

    /// Moves `bytes[end - historySize..<end]` to the front; returns how far the data moved.
    func keepHistory(endingAt end: Int) -> Int {
        let shift = max(0, end - Self.historySize)
        guard shift > 0, let base = bytes.baseAddress else { return 0 }
        UnsafeMutableRawPointer(base).copyMemory(from: base + shift, byteCount: end - shift)
        return shift
    }
}
