import CRDTNote
import CRDTNoteTraces
import Foundation

/// The shared editing traces (`../shared/traces`, see its README). Tests that need one are
/// declared `.enabled(if: SharedTraces.isInstalled("name.json.gz"))`, so a missing trace shows
/// as a skipped test, never as a silent pass.
package enum SharedTraces {
    /// `$CRDTNOTE_TRACES`, else the first `shared/traces` found walking up from the package root
    /// (`../shared/traces` for the main checkout; one level further up for a worktree).
    package static let directory: String? = {
        if let env = ProcessInfo.processInfo.environment["CRDTNOTE_TRACES"] { return env }
        var url = URL(fileURLWithPath: RepositoryPaths.root)
        for _ in 0..<3 {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("shared/traces").path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// Whether `file` is installed.
    package static func isInstalled(_ file: String) -> Bool { path(file) != nil }

    /// The full path of `file`, or nil when it is not installed.
    package static func path(_ file: String) -> String? {
        guard let dir = directory, FileManager.default.fileExists(atPath: dir + "/" + file) else { return nil }
        return dir + "/" + file
    }

    /// The trace `file`, loaded; throws when it is not installed.
    package static func load(_ file: String) throws -> EditingTrace {
        try EditingTrace.load(contentsOf: try requirePath(file))
    }

    /// The decompressed JSON of `file`; throws when it is not installed.
    package static func jsonBytes(_ file: String) throws -> [UInt8] {
        let path = try requirePath(file)
        guard let data = FileManager.default.contents(atPath: path) else { throw Missing(file: file) }
        let bytes = [UInt8](data)
        return Gzip.isGzip(bytes) ? try Gzip.decompress(bytes) : bytes
    }

    /// A trace a test needed but that is not installed (tests guard with `isInstalled`).
    package struct Missing: Error, CustomStringConvertible {
        package var file: String
        package var description: String { "\(file) not found in ../shared/traces or $CRDTNOTE_TRACES" }
    }

    private static func requirePath(_ file: String) throws -> String {
        guard let path = path(file) else { throw Missing(file: file) }
        return path
    }
}
