/// The status `crdtnote` exits with: one named value per outcome a script can tell apart.
///
/// Values follow BSD `sysexits.h` where one fits, so shell scripts and CI jobs can branch on
/// them without parsing messages. Like swift-system's error codes this is an open struct, not an
/// enum, so new statuses can be added without breaking code that switches over the known ones.
struct ExitStatus: RawRepresentable, Hashable, Sendable {
    /// The numeric status handed to `exit(3)`.
    var rawValue: Int32

    /// Creates a status from its numeric value.
    init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: the command did what was asked.
    static let success = ExitStatus(rawValue: 0)

    /// 1: the command ran but its check failed: a merge could not be completed, `verify` found a
    /// bad record, `replay` did not reproduce the trace, `simulate` saw replicas diverge.
    static let failure = ExitStatus(rawValue: 1)

    /// 64 (`EX_USAGE`): the command line is wrong (unknown command or option, missing or bad value).
    static let usage = ExitStatus(rawValue: 64)

    /// 65 (`EX_DATAERR`): an input was read but is invalid or corrupt (bad JSON, bad payload,
    /// larger than the size limit).
    static let dataError = ExitStatus(rawValue: 65)

    /// 66 (`EX_NOINPUT`): an input file or folder is missing, unreadable or of the wrong kind.
    static let noInput = ExitStatus(rawValue: 66)

    /// 70 (`EX_SOFTWARE`): a bug or unfinished feature in crdtnote itself.
    static let internalFailure = ExitStatus(rawValue: 70)

    /// 73 (`EX_CANTCREAT`): the output could not be written; nothing was left behind.
    static let cannotCreate = ExitStatus(rawValue: 73)

    /// 75 (`EX_TEMPFAIL`): the input uses a newer format than this crdtnote understands, or a
    /// note library stayed locked by another process past the wait.
    ///
    /// Chosen over 65 because the data is not bad: the same command succeeds once crdtnote is
    /// updated, which is what "temporary failure, try again later" tells a caller. A sync script
    /// can keep the record untouched and retry after an update instead of treating it as corrupt.
    static let newerFormat = ExitStatus(rawValue: 75)

    /// Every status crdtnote uses with a short meaning, in the order `--help` lists them.
    static let documented: [(status: ExitStatus, meaning: String)] = [
        (.success, "success"),
        (.failure, "merge, verify, replay or simulate failed (bad record found, replicas diverged)"),
        (.usage, "usage error: bad command, option or value (EX_USAGE)"),
        (.dataError, "invalid or corrupt input data (EX_DATAERR)"),
        (.noInput, "input file missing or unreadable (EX_NOINPUT)"),
        (.internalFailure, "internal failure in crdtnote (EX_SOFTWARE)"),
        (.cannotCreate, "cannot write output; nothing was written (EX_CANTCREAT)"),
        (.newerFormat, "record uses a newer format (update crdtnote), or the library is busy: retry (EX_TEMPFAIL)"),
    ]
}
