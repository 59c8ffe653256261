import CRDTNoteTesting
import Foundation

/// The progress line `crdtnote simulate` keeps on standard error while it runs: edits done,
/// syncs, faults, crashes and elapsed time, rewritten in place a few times a second. Only made
/// when standard error is a terminal, so piped output and `--json` consumers never see it.
final class SimulationProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let start = ContinuousClock.now
    private var lastShown: ContinuousClock.Instant?
    private var shown = false

    /// A progress line, or nil when standard error is not a terminal.
    init?() {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
    }

    /// Rewrites the line, at most five times a second (and always for the last edit).
    func show(_ progress: NoteSyncSimulationProgress) {
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        let last = progress.editsDone == progress.edits
        if let lastShown, now - lastShown < .milliseconds(200), !last { return }
        lastShown = now
        let elapsed = Double((now - start).components.seconds) + Double((now - start).components.attoseconds) / 1e18
        let text = "\r\u{1B}[Kedits \(progress.editsDone)/\(progress.edits), syncs \(progress.syncs), "
            + "faults \(progress.faults), crashes \(progress.crashes), \(String(format: "%.1f", elapsed)) s"
        FileHandle.standardError.write(Data(text.utf8))
        shown = true
    }

    /// Clears the line so the report starts on a clean line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
