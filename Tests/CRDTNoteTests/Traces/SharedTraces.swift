import Foundation
@testable import CRDTNote

/// The shared editing traces (../shared/traces, see its README), which tests skip when absent.
enum SharedTraces {
    /// `$CRDTNOTE_TRACES`, else the first `shared/traces` found walking up from the package root
    /// (`../shared/traces` for the main checkout; one level further up for a worktree).
    static let directory: String? = {
        if let env = ProcessInfo.processInfo.environment["CRDTNOTE_TRACES"] { return env }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }   // file name, Traces, CRDTNoteTests, Tests
        for _ in 0..<3 {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("shared/traces").path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// The full path of `file`, or nil (after saying the test is skipped) when it is not installed.
    static func path(_ file: String) -> String? {
        guard let dir = directory, FileManager.default.fileExists(atPath: dir + "/" + file) else {
            print("skipping \(file): not found in ../shared/traces or $CRDTNOTE_TRACES (the shared editing traces are not installed)")
            return nil
        }
        return dir + "/" + file
    }

    /// The trace `file`, loaded, or nil when it is not installed.
    static func load(_ file: String) throws -> EditingTrace? {
        guard let path = path(file) else { return nil }
        return try EditingTrace.load(contentsOf: path)
    }

    /// The decompressed JSON of `file`, or nil when it is not installed.
    static func jsonBytes(_ file: String) throws -> [UInt8]? {
        guard let path = path(file), let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        return Gzip.isGzip(bytes) ? try Gzip.decompress(bytes) : bytes
    }
}
