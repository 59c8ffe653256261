import CRDTNoteSupport
import CRDTNote
import Foundation

extension EditingTrace {
    /// The largest trace accepted, in bytes of JSON: 64 MiB, the same as the `crdtnote` input
    /// limit, and for a gzipped trace the limit of its *decompressed* size too (inflating
    /// stops there), so a small gzip bomb cannot hold more memory than a plain file could.
    /// The biggest public traces are under 16 MB of JSON.
    public static let maximumTraceBytes = 64 << 20

    /// Reads a trace file, plain JSON or gzipped JSON (detected by the gzip magic number).
    ///
    /// Errors name the file and, for bad JSON, the byte position; for bad gzip, the byte offset.
    public static func load(contentsOf path: String) throws(TraceError) -> EditingTrace {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TraceError(.unreadable, "\(path): cannot read the file (missing or unreadable)")
        }
        do {
            return try EditingTrace(fileBytes: [UInt8](data))
        } catch {
            throw TraceError(error.code, "\(path): \(error.message)", gzipError: error.gzipError)
        }
    }

    /// Parses the contents of a trace file: plain JSON, or gzipped JSON (detected by the gzip
    /// magic number, inflated up to `maxBytes`, default ``maximumTraceBytes``). Either form
    /// larger than `maxBytes` fails (`gzipError?.code == .outputTooLarge` for gzip) before more
    /// than `maxBytes` of output is produced.
    ///
    /// Gzipped JSON is inflated and parsed chunk by chunk: only a 96 KiB window of it is ever
    /// held, never the whole decompressed text.
    public init(fileBytes: [UInt8], maxBytes: Int = EditingTrace.maximumTraceBytes) throws(TraceError) {
        guard Gzip.isGzip(fileBytes) else {
            guard fileBytes.count <= maxBytes else {
                throw TraceError(.tooLarge, "trace is larger than the \(Self.describe(maxBytes)) limit")
            }
            try self.init(jsonBytes: fileBytes)
            return
        }
        let raw: Result<RawTrace, TraceReadError> = fileBytes.withUnsafeBufferPointer { input in
            RawTrace.read(TraceJSONSource(gzip: GzipStream(fileBytes, input: input, maxOutputBytes: maxBytes)))
        }
        self = try RawTrace.traceOrError(raw, maxBytes: maxBytes).validated()
    }

    /// `bytes` as "64 MiB" when a whole number of MiB, else "N bytes".
    static func describe(_ bytes: Int) -> String {
        bytes > 0 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
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
        case .sequential(let trace): trace.columns.count
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
