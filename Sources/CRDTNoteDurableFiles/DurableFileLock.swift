import Foundation

/// An exclusive advisory lock held on a file (see ``DurableFileSystem/lockFile(at:waiting:)``).
/// Released by ``unlock()`` or, at the latest, when the value is deallocated; a process that
/// dies releases it too (the kernel closes its files).
package final class DurableFileLock: @unchecked Sendable {
    /// The locked file.
    package let path: String
    private let state = NSLock()
    private var release: (@Sendable () -> Void)?

    /// A held lock on `path`; `release` gives it up and is called at most once.
    package init(path: String, release: @escaping @Sendable () -> Void) {
        self.path = path
        self.release = release
    }

    /// Whether the lock is still held by this value.
    package var isHeld: Bool {
        state.lock()
        defer { state.unlock() }
        return release != nil
    }

    /// Gives the lock up; later calls do nothing.
    package func unlock() {
        state.lock()
        let pending = release
        release = nil
        state.unlock()
        pending?()
    }

    deinit { unlock() }
}
