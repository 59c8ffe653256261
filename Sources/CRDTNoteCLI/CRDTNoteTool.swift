import Foundation

/// The `crdtnote` executable: parse the command line, run the command, exit with its status.
@main
struct CRDTNoteTool {
    /// Process entry point.
    static func main() async {
        let status = await run(Array(CommandLine.arguments.dropFirst()))
        exit(status.rawValue)
    }

    /// Runs one command line and returns the exit status; errors are printed to standard error.
    static func run(_ arguments: [String]) async -> ExitStatus {
        do {
            let invocation = try Invocation(arguments: arguments)
            try await invocation.execute()
            return .success
        } catch {
            OutputWriter.writeToStandardError(error.rendered)
            return error.exitStatus
        }
    }
}
