import Foundation

/// A formatted note's ``AttributeRuns``, built on the first read after a change (updated from
/// the runs before it after one local edit, AttributeRuns+LocalEdit.swift) and kept until
/// the next: copies of a note share it until one of them changes (then that copy gets a fresh
/// one), so a read through any copy fills it for all of them. Thread-safe: reads of a shared
/// note from several threads build it once.
final class AttributeCache: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: AttributeRuns?
    /// The runs of the text before the one local edit made since, and that edit: the next read
    /// updates them (``AttributeRuns/updated(for:in:formatting:)``) instead of resolving the
    /// note again, when it can.
    private var pending: (base: AttributeRuns, edit: LocalTextEdit)?
    /// Whether `runs` or `pending` is set (one byte to test on every edit of a formatted note).
    private var filled = false
    /// How the cache was last filled (for tests: whether typing took the update path, whether a
    /// formatting command kept it).
    private(set) var lastFill: Fill?

    /// How a read (or a command, `stored`) filled the cache.
    enum Fill { case resolved, updated, stored }

    init() {}

    /// A cache holding `base` and a local edit made since (for a copy that made the edit while
    /// sharing the cache that held `base`).
    private init(base: AttributeRuns, edit: LocalTextEdit) {
        pending = (base, edit)
        filled = true
    }

    /// The cached runs: else the pending edit applied by `update` (nil: it cannot be), else the
    /// runs `build` resolves; under the lock.
    func runs(orUpdate update: (AttributeRuns, LocalTextEdit) -> AttributeRuns?,
              orBuild build: () throws(NoteTextError) -> AttributeRuns) throws(NoteTextError) -> AttributeRuns {
        lock.lock()
        defer { lock.unlock() }
        if let runs { return runs }
        if let waiting = pending {
            pending = nil
            if let updated = update(waiting.base, waiting.edit) {
                runs = updated
                lastFill = .updated
                return updated
            }
        }
        let built = try build()
        runs = built
        filled = true
        lastFill = .resolved
        return built
    }

    /// Stores `runs` (what a mutating command computed anyway).
    func store(_ runs: AttributeRuns) {
        lock.lock()
        defer { lock.unlock() }
        self.runs = runs
        pending = nil
        filled = true
        lastFill = .stored
    }

    /// Forgets the runs. Only for a cache no other copy holds, so no other thread can reach
    /// it: no lock (a formatted note's every edit calls this).
    func clearUnshared() {
        guard filled else { return }
        runs = nil
        pending = nil
        filled = false
    }

    /// Whether the cache holds anything (for a cache no other copy holds).
    var isFilledUnshared: Bool { filled }

    /// A local edit (`edit`, nil when it cannot be followed) is about to change the text of a
    /// cache no other copy holds: the current runs become the base it updates on the next read.
    func noteLocalEditUnshared(_ edit: LocalTextEdit?) {
        guard filled else { return }
        if let runs, let edit { pending = (runs, edit) } else { pending = nil }
        runs = nil
        filled = pending != nil
    }

    /// A fresh cache for a copy that is about to make the local edit `edit` while sharing this
    /// one: it starts from this cache's runs when there are any.
    func forLocalEdit(_ edit: LocalTextEdit?) -> AttributeCache {
        lock.lock()
        defer { lock.unlock() }
        guard let runs, let edit else { return AttributeCache() }
        return AttributeCache(base: runs, edit: edit)
    }
}

/// One local edit of the visible text: the scalars `replaced` (of the text before it) replaced
/// by `inserted` scalars typed there, no newline among either.
struct LocalTextEdit: Sendable {
    var replaced: Range<Int>
    var inserted: Int
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

    /// Before a local edit replaces the visible scalars `range` with `utf8` (called right before
    /// the sequence changes): nothing for a plain note (no cache); for a formatted one, the
    /// cached runs are kept as the base the next read updates for this edit. Inlined into every
    /// edit: one comparison for plain notes.
    @inline(__always)
    mutating func textWillChange(replacing range: Range<Int>, with utf8: UnsafeBufferPointer<UInt8>) {
        guard attributeCache != nil else { return }
        // As in `textChanged()`: a unique cache that holds nothing (a note nobody reads while
        // it is edited) costs the check alone.
        if isKnownUniquelyReferenced(&attributeCache) {
            // Not nil (checked above): no optional test on every keystroke.
            if attributeCache.unsafelyUnwrapped.isFilledUnshared { filledCacheWillChange(replacing: range, with: utf8) }
        } else {
            sharedCacheWillChange(replacing: range, with: utf8)
        }
    }

    @inline(never)
    private mutating func filledCacheWillChange(replacing range: Range<Int>, with utf8: UnsafeBufferPointer<UInt8>) {
        attributeCache?.noteLocalEditUnshared(localEdit(replacing: range, with: utf8))
    }

    @inline(never)
    private mutating func sharedCacheWillChange(replacing range: Range<Int>, with utf8: UnsafeBufferPointer<UInt8>) {
        attributeCache = attributeCache?.forLocalEdit(localEdit(replacing: range, with: utf8))
    }

    /// The edit replacing `range` by `utf8`, nil when a newline is typed or deleted (paragraphs
    /// split or join: the next read resolves the note).
    private func localEdit(replacing range: Range<Int>, with utf8: UnsafeBufferPointer<UInt8>) -> LocalTextEdit? {
        guard !Self.typesNewline(utf8), sequence.newlines(inScalars: range).isEmpty else { return nil }
        var scalars = 0
        for byte in utf8 where byte & 0xC0 != 0x80 { scalars += 1 }
        return LocalTextEdit(replaced: range, inserted: scalars)
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
        // The built index and the formatting passed borrowed: a copy of the note's index cost
        // more than reading a cached index (every field retained and released).
        if deferred == nil { return try Self.attributeRuns(cache: attributeCache, formatting: formatting, sequence: sequence) }
        return try Self.attributeRuns(cache: attributeCache, formatting: formatting, sequence: indexForReading())
    }

    private static func attributeRuns(cache: AttributeCache?, formatting: NoteFormatting,
                                      sequence: TextSequence) throws(NoteTextError) -> AttributeRuns {
        guard let cache, !formatting.isEmpty else { return AttributeRuns(plain: sequence) }
        return try cache.runs(orUpdate: { base, edit in base.updated(for: edit, in: sequence, formatting: formatting) },
                              orBuild: { () throws(NoteTextError) in AttributeRuns(resolving: formatting, in: sequence) })
    }
}
