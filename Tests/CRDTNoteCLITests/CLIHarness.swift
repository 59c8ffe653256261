import Foundation

/// What one run of the `crdtnote` executable produced.
struct CLIResult: Sendable {
    /// Exit status of the process.
    var status: Int32
    /// Everything written to standard output.
    var stdout: String
    /// Everything written to standard error.
    var stderr: String
    /// Standard output as raw bytes, for byte-exact checks.
    var stdoutData: Data
}

/// Runs the built `crdtnote` executable the way a user would.
enum CLIHarness {
    /// Why the executable could not be found, or its location.
    static let located: Result<URL, LocateError> = locate()

    /// A failure to find the executable, listing where it looked.
    struct LocateError: Error, CustomStringConvertible {
        /// The directories searched.
        var searched: [String]
        /// A message naming the searched places.
        var description: String {
            "could not find the built 'crdtnote' executable; build it with `swift build` first "
                + "(or set CRDTNOTE_EXECUTABLE). Looked in: " + searched.joined(separator: ", ")
        }
    }

    /// Runs `crdtnote` with `arguments`, feeding `stdin`, in `directory`.
    static func run(
        _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil
    ) throws -> CLIResult {
        // Throwing fails the calling test with the list of places searched.
        try runProcess(located.get(), arguments, stdin: stdin, in: directory)
    }

    /// Runs any `executable` the same way (e.g. `script`, to give `crdtnote` a terminal).
    static func runProcess(
        _ executable: URL, _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil
    ) throws -> CLIResult {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        let inURL = scratch.url.appendingPathComponent("stdin")
        // Files rather than pipes: no deadlock however much the tool prints.
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        try (stdin ?? Data()).write(to: inURL)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        let inHandle = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = inHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        try inHandle.close()

        let outData = try Data(contentsOf: outURL)
        let errData = try Data(contentsOf: errURL)
        return CLIResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            stdoutData: outData)
    }

    /// Finds the executable: an explicit override, then beside the test bundle (SwiftPM puts
    /// products and the `.xctest` in the same `.build/<config>` folder), then `.build/debug`.
    private static func locate() -> Result<URL, LocateError> {
        let fileManager = FileManager.default
        if let override = ProcessInfo.processInfo.environment["CRDTNOTE_EXECUTABLE"], !override.isEmpty {
            return fileManager.isExecutableFile(atPath: override)
                ? .success(URL(fileURLWithPath: override))
                : .failure(LocateError(searched: [override]))
        }
        var folders: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        let mainBundle = Bundle.main.bundleURL
        folders.append(mainBundle)
        folders.append(mainBundle.deletingLastPathComponent())
        if let argument = CommandLine.arguments.first, argument.contains("/") {
            var url = URL(fileURLWithPath: argument).deletingLastPathComponent()
            // On Darwin the test binary sits inside X.xctest/Contents/MacOS.
            for _ in 0..<4 {
                folders.append(url)
                url = url.deletingLastPathComponent()
            }
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        folders.append(packageRoot.appendingPathComponent(".build/debug"))

        for folder in folders {
            let candidate = folder.appendingPathComponent("crdtnote")
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                fileManager.isExecutableFile(atPath: candidate.path)
            {
                return .success(candidate)
            }
        }
        return .failure(LocateError(searched: folders.map(\.path)))
    }
}

/// A fresh directory under the system temporary folder, removed by `remove()`.
struct TemporaryDirectory {
    /// The directory's location.
    let url: URL

    /// Creates a new, empty, uniquely named directory.
    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("crdtnote-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The names of the entries in the directory, hidden ones included, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// Deletes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
