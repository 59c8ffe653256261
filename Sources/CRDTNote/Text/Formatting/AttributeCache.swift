import Foundation

/// A formatted note's ``AttributeRuns``, built on the first read after a change and kept until
/// the next: copies of a note share it until one of them changes (then that copy gets a fresh
/// one), so a read through any copy fills it for all of them. Thread-safe: reads of a shared
/// note from several threads build it once.
final class AttributeCache: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: AttributeRuns?
    /// Whether `runs` is set (one byte to test on every edit of a formatted note).
    private var filled = false

    /// The cached runs, built by `build` (under the lock) when there are none.
    func runs(orBuild build: () throws(NoteTextError) -> AttributeRuns) throws(NoteTextError) -> AttributeRuns {
        lock.lock()
        defer { lock.unlock() }
        if let runs { return runs }
        let built = try build()
        runs = built
        filled = true
        return built
    }

    /// Stores `runs` (what a mutating command computed anyway).
    func store(_ runs: AttributeRuns) {
        lock.lock()
        defer { lock.unlock() }
        self.runs = runs
        filled = true
    }

    /// Forgets the runs. Only for a cache no other copy holds, so no other thread can reach
    /// it: no lock (a formatted note's every edit calls this).
    func clearUnshared() {
        guard filled else { return }
        runs = nil
        filled = false
    }
}

extension NoteText {
    /// After the text changed (formatting did not): nothing for a plain note (no cache), else
    /// ``resetAttributeCache()`` without looking at the formatting. Inlined into every edit.
    @inline(__always)
    mutating func textChanged() {
        guard attributeCache != nil else { return }
        if isKnownUniquelyReferenced(&attributeCache) {
            attributeCache?.clearUnshared()
        } else {
            attributeCache = AttributeCache()
        }
    }

    /// After the formatting changed: a note without formatting has no cache; a formatted one
    /// gets an empty cache (its own, when copies shared the old one).
    mutating func resetAttributeCache() {
        if isKnownUniquelyReferenced(&attributeCache) {
            attributeCache?.clearUnshared()
            if formatting.isEmpty { attributeCache = nil }
        } else {
            attributeCache = formatting.isEmpty ? nil : AttributeCache()
        }
    }

    /// The attributes index of the visible text: from the cache when nothing changed since it
    /// was filled, else resolved (``AttributeRuns/init(resolving:in:)``) and cached.
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's index cannot be built.
    func attributeRuns() throws(NoteTextError) -> AttributeRuns {
        let sequence = try indexForReading()
        guard let attributeCache, !formatting.isEmpty else { return AttributeRuns(plain: sequence) }
        return try attributeCache.runs { () throws(NoteTextError) in AttributeRuns(resolving: formatting, in: sequence) }
    }
}
