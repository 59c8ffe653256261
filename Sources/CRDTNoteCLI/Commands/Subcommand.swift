import CRDTNoteSupport
import CRDTNoteToolSupport

/// The commands `crdtnote` understands, in the order `--help` lists them.
enum Subcommand: String, CaseIterable, Sendable {
    /// `crdtnote merge`
    case merge
    /// `crdtnote new`
    case new
    /// `crdtnote edit`
    case edit
    /// `crdtnote style`
    case style
    /// `crdtnote text`
    case text
    /// `crdtnote log`
    case log
    /// `crdtnote restore`
    case restore
    /// `crdtnote show`
    case show
    /// `crdtnote verify`
    case verify
    /// `crdtnote replay`
    case replay
    /// `crdtnote simulate`
    case simulate
    /// `crdtnote library`
    case library
    /// `crdtnote help`
    case help

    /// The command's parsing and help description.
    var spec: CommandSpec {
        switch self {
        case .merge: MergeOptions.spec
        case .new: NewOptions.spec
        case .edit: EditOptions.spec
        case .style: StyleOptions.spec
        case .text: TextOptions.spec
        case .log: LogOptions.spec
        case .restore: RestoreOptions.spec
        case .show: ShowOptions.spec
        case .verify: VerifyOptions.spec
        case .replay: ReplayOptions.spec
        case .simulate: SimulateOptions.spec
        case .library: LibraryOptions.spec
        case .help: HelpCommand.spec
        }
    }
}
