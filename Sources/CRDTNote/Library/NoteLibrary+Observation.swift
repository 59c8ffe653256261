/// Watching a library for changes (for lists in SwiftUI and the like).
extension NoteLibrary {
    /// Every change from now on: this process's as they happen, other processes' when a call of
    /// this process next reads the journal (any call does; there is no file watching). Ends
    /// when the library is closed.
    ///
    /// ```swift
    /// for await change in library.changes() { reloadList(after: change) }
    /// ```
    public func changes() -> AsyncStream<NoteLibraryChange> {
        let (stream, continuation) = AsyncStream<NoteLibraryChange>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let id: UInt64? = locked {
            if state.closed { return nil }
            nextObserver += 1
            observers[nextObserver] = continuation
            return nextObserver
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.locked { self.observers[id] = nil }
        }
        return stream
    }

    /// Tells every observer about `change` (called with the mutex held).
    func notify(_ change: NoteLibraryChange) {
        for continuation in observers.values { continuation.yield(change) }
    }
}
