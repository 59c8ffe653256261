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
        var bytes = [UInt8](data)
        _ = consume data
        if Gzip.isGzip(bytes) {
            do {
                bytes = try Gzip.decompress(bytes, maxOutputBytes: maximumTraceBytes)
            } catch {
                throw TraceError("\(path): bad gzip data: \(error)")
            }
        }
        do {
            return try EditingTrace(jsonBytes: bytes)
        } catch {
            throw TraceError("\(path): \(error.message)")
        }
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
