/// A failure of a `crdtnote` command: what kind it is, what is wrong, and where.
///
/// Every error the tool reports goes through this type so that the exit status and the
/// `crdtnote: error: <file>: <where>: <message>` line are decided in one place.
struct CLIError: Error, Equatable, Sendable {
    /// The category of a failure; it alone decides the exit status.
    struct Code: RawRepresentable, Hashable, Sendable {
        /// A stable name for the code, used in tests and debugging output.
        var rawValue: String

        /// Creates a code from its name.
        init(rawValue: String) { self.rawValue = rawValue }

        /// The command line is wrong; exits 64.
        static let usage = Code(rawValue: "usage")
        /// An input file or folder is missing or unreadable; exits 66.
        static let noInput = Code(rawValue: "noInput")
        /// An input is invalid or corrupt; exits 65.
        static let dataError = Code(rawValue: "dataError")
        /// An input uses a format newer than this build understands; exits 75.
        static let newerFormat = Code(rawValue: "newerFormat")
        /// Another process held the note library for too long; exits 75 (try again).
        static let busy = Code(rawValue: "busy")
        /// The operation ran and failed its own check (verify, replay, simulate, merge); exits 1.
        static let operationFailed = Code(rawValue: "operationFailed")
        /// The output could not be written; exits 73.
        static let cannotWrite = Code(rawValue: "cannotWrite")
        /// A bug or missing feature in crdtnote; exits 70.
        static let internalFailure = Code(rawValue: "internalFailure")
    }

    /// The category, which decides the exit status.
    var code: Code
    /// What is wrong, in words a user can act on.
    var message: String
    /// The file the problem is in, when there is one.
    var file: String?
    /// Where in that file (byte offset, JSON path, line:column), when known.
    var location: String?
    /// The command whose help a usage error points to; nil points to the general help.
    var helpCommand: String?

    /// Creates an error.
    init(code: Code, message: String, file: String? = nil, location: String? = nil, helpCommand: String? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.location = location
        self.helpCommand = helpCommand
    }

    /// A usage error that points the user to `crdtnote help <command>`.
    static func usage(_ message: String, command: String?) -> CLIError {
        CLIError(code: .usage, message: message, helpCommand: command)
    }

    /// The status the process exits with for this error.
    var exitStatus: ExitStatus {
        switch code {
        case .usage: .usage
        case .noInput: .noInput
        case .dataError: .dataError
        case .newerFormat, .busy: .newerFormat
        case .operationFailed: .failure
        case .cannotWrite: .cannotCreate
        default: .internalFailure
        }
    }

    /// The text printed on standard error: the error line, plus a hint line for usage errors.
    var rendered: String {
        let parts = [file, location, message].compactMap { $0 }.filter { !$0.isEmpty }
        var text = "crdtnote: error: " + parts.joined(separator: ": ") + "\n"
        if code == .usage {
            let target = helpCommand.map { "crdtnote help \($0)" } ?? "crdtnote help"
            text += "crdtnote: see '\(target)'\n"
        }
        return text
    }
}
