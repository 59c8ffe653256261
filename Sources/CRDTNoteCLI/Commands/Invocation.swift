import CRDTNote
import CRDTNoteTesting
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteToolSupport

/// What a whole `crdtnote` command line asks for, fully validated.
enum Invocation: Equatable, Sendable {
    /// Print the general help (nil) or one command's help.
    case help(Subcommand?)
    /// Print `crdtnote <version>`.
    case version
    /// `crdtnote merge`
    case merge(MergeOptions)
    /// `crdtnote new`
    case new(NewOptions)
    /// `crdtnote edit`
    case edit(EditOptions)
    /// `crdtnote style`
    case style(StyleOptions)
    /// `crdtnote text`
    case text(TextOptions)
    /// `crdtnote log`
    case log(LogOptions)
    /// `crdtnote restore`
    case restore(RestoreOptions)
    /// `crdtnote show`
    case show(ShowOptions)
    /// `crdtnote verify`
    case verify(VerifyOptions)
    /// `crdtnote replay`
    case replay(ReplayOptions)
    /// `crdtnote simulate`
    case simulate(SimulateOptions)
    /// `crdtnote library`
    case library(LibraryOptions)

    /// Parses the arguments after the program name.
    init(arguments: [String]) throws(CLIError) {
        do throws(UsageError) {
            try self.init(parsing: arguments)
        } catch {
            throw .usage(error.message, command: error.command)
        }
    }

    private init(parsing arguments: [String]) throws(UsageError) {
        guard let word = arguments.first else {
            throw UsageError("missing command")
        }
        let rest = Array(arguments.dropFirst())
        switch word {
        case "--help", "-h":
            self = try HelpCommand.parse(rest)
        case "--version":
            guard rest.isEmpty else { throw UsageError("'--version' takes no arguments") }
            self = .version
        default:
            guard let command = Subcommand(rawValue: word) else {
                let what = word.hasPrefix("-") ? "unknown option" : "unknown command"
                throw UsageError("\(what) '\(word)'")
            }
            try self.init(command: command, arguments: rest)
        }
    }

    private init(command: Subcommand, arguments: [String]) throws(UsageError) {
        if command == .help {
            self = try HelpCommand.parse(arguments)
            return
        }
        guard case .parsed(let parsed) = try ArgumentParser.parse(arguments, for: command.spec) else {
            self = .help(command)
            return
        }
        switch command {
        case .merge: self = .merge(try MergeOptions(parsed))
        case .new: self = .new(try NewOptions(parsed))
        case .edit: self = .edit(try EditOptions(parsed))
        case .style: self = .style(try StyleOptions(parsed))
        case .text: self = .text(try TextOptions(parsed))
        case .log: self = .log(try LogOptions(parsed))
        case .restore: self = .restore(try RestoreOptions(parsed))
        case .show: self = .show(try ShowOptions(parsed))
        case .verify: self = .verify(try VerifyOptions(parsed))
        case .replay: self = .replay(try ReplayOptions(parsed))
        case .simulate: self = .simulate(try SimulateOptions(parsed))
        case .library: self = .library(try LibraryOptions(parsed))
        case .help: self = .help(nil)
        }
    }

    /// Runs the command. Files are checked first so a missing input or unwritable output is
    /// reported before any work is done.
    func execute() async throws(CLIError) {
        switch self {
        case .help(nil):
            try OutputWriter.writeToStandardOutput(Array(HelpText.general().utf8))
        case .help(let command?):
            try OutputWriter.writeToStandardOutput(Array(HelpText.command(command.spec).utf8))
        case .version:
            try OutputWriter.writeToStandardOutput(Array("crdtnote \(CRDTNoteRelease.version)\n".utf8))
        case .merge(let options):
            try options.checkFiles()
            try runMerge(options)
        case .new(let options):
            try options.checkFiles()
            try runNew(options)
        case .edit(let options):
            try options.checkFiles()
            try runEdit(options)
        case .style(let options):
            try options.checkFiles()
            try runStyle(options)
        case .text(let options):
            try options.checkFiles()
            try runText(options)
        case .log(let options):
            try options.checkFiles()
            try runLog(options)
        case .restore(let options):
            try options.checkFiles()
            try runRestore(options)
        case .show(let options):
            try options.checkFiles()
            try runShow(options)
        case .verify(let options):
            try options.checkFiles()
            try runVerify(options)
        case .replay(let options):
            try options.checkFiles()
            try runReplay(options)
        case .simulate(let options):
            try await runSimulate(options)
        case .library(let options):
            try await runLibrary(options)
        }
    }
}
