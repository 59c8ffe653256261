import CRDTNoteSupport
import CRDTNote
import Foundation

extension EditingTrace {
    /// The largest decompressed trace accepted (the biggest public traces are a few MB).
    public static let maximumTraceBytes = 1 << 30

    /// Reads a trace file, plain JSON or gzipped JSON (detected by the gzip magic number).
    ///
    /// Errors name the file and, for bad JSON, the byte position; for bad gzip, the byte offset.
    public static func load(contentsOf path: String) throws(TraceError) -> EditingTrace {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TraceError("\(path): cannot read the file (missing or unreadable)")
        }
        do {
            return try EditingTrace(fileBytes: [UInt8](data))
        } catch {
            throw TraceError("\(path): \(error.message)")
        }
    }

    /// Parses the contents of a trace file: plain JSON, or gzipped JSON (detected by the gzip
    /// magic number, inflated up to ``maximumTraceBytes``).
    public init(fileBytes: [UInt8]) throws(TraceError) {
        var bytes = fileBytes
        if Gzip.isGzip(bytes) {
            do {
                bytes = try Gzip.decompress(bytes, maxOutputBytes: Self.maximumTraceBytes)
            } catch {
                throw TraceError("invalid gzip data: \(error)")
            }
        }
        try self.init(jsonBytes: bytes)
    }

    /// The final text every correct replay must produce.
    public var endContent: String {
        switch self {
        case .sequential(let trace): trace.endContent
        case .concurrent(let trace): trace.endContent
        }
    }

    /// Total number of patches in all transactions.
    public var patchCount: Int {
        switch self {
        case .sequential(let trace): trace.patches.count
        case .concurrent(let trace): trace.transactions.reduce(0) { $0 + $1.patches.count }
        }
    }

    /// Number of transactions.
    public var transactionCount: Int {
        switch self {
        case .sequential(let trace): trace.transactionCount
        case .concurrent(let trace): trace.transactions.count
        }
    }
}
