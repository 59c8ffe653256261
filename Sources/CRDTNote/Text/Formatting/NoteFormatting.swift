/// The formatting of one note as a state-based CRDT: the set of every mark, unmark and
/// paragraph operation made on it, resolved against the note's element order on reading.
/// Merging is set union, so it is commutative, associative and idempotent, and an operation
/// received twice changes nothing. Docs/FORMAT.md §10 is the specification; `NoteText` holds
/// it, and a record stores it in its `formatting` field (§10.7).
///
/// Operations name elements by id; one whose elements a copy of the note does not hold yet
/// (its text has not been merged here) formats nothing until they arrive.
struct NoteFormatting: Hashable, Sendable {
    /// Every mark and unmark operation.
    private(set) var marks: OperationSet<MarkOperation> = []
    /// Every paragraph-attribute operation.
    private(set) var paragraphs: OperationSet<ParagraphOperation> = []
    /// Per paragraph key and attribute name, the operation that wins among ``paragraphs``: a
    /// function of the set (so equal sets give equal indexes), kept as operations arrive so that
    /// reading one paragraph's attributes costs O(1), not O(operations). A key's winners are
    /// one per attribute name, ordered by name (a handful: a scan, no hashing of names, and
    /// the same order whatever order the operations came in).
    private(set) var paragraphWinners = ParagraphWinners()
    /// Whether some mark operation's start is not just before its first character (a kind that
    /// grows at its start, §10.2, or a writer's own anchor): text typed before such a mark may
    /// join it by its right origin (§10.4, rule 3), which the incremental update of the
    /// attributes index after a local edit does not follow. A function of ``marks``.
    private(set) var hasMarksGrowingAtStart = false
    /// Per author, the latest stamp among its operations here: the formatting part of a copy's
    /// ``VersionVector``. A function of the set, kept as operations arrive (in ``authorStamps``).
    /// An author's stamps grow with every operation it makes, so every copy holds, of each
    /// author, exactly its operations up to the stamp listed (deltas keep it so, §5).
    var latestByAuthor: [ReplicaID: HLCTimestamp] {
        Dictionary(uniqueKeysWithValues: authorStamps.map { ($0.author, $0.stamp) })
    }
    /// ``latestByAuthor`` as it is kept: ordered by author, so equal sets give equal arrays. An
    /// array, not a dictionary: raising the one author of a note formatted on one device costs
    /// a comparison (a dictionary's entry cost a retain and a release of its storage).
    private var authorStamps: [AuthorStamp] = []

    /// An author and its latest stamp.
    private struct AuthorStamp: Hashable, Sendable {
        var author: ReplicaID
        var stamp: HLCTimestamp
    }

    /// Most UTF-8 bytes of one name or value (a link's URL) in the string table.
    static let maximumStringBytes = 4096

    /// Whether there is no operation at all (a plain note: no `formatting` field is written).
    var isEmpty: Bool { marks.isEmpty && paragraphs.isEmpty }

    /// Number of operations, the count ``NoteLimits/maximumFormattingOperations`` bounds.
    var operationCount: Int { marks.count + paragraphs.count }

    /// Throws ``NoteTextError/Code/tooLarge`` when `adding` more operations would take the note
    /// past ``NoteLimits/maximumFormattingOperations``.
    func checkRoom(adding: Int) throws(NoteTextError) {
        let limit = NoteLimits.default.maximumFormattingOperations
        guard operationCount + adding <= limit else {
            throw NoteTextError(.tooLarge, "the note would have more than \(limit) formatting operations")
        }
    }

    /// Adds a local or received mark operation.
    mutating func add(_ operation: MarkOperation) {
        marks.insert(operation)
        if operation.start != .before(operation.first) { hasMarksGrowingAtStart = true }
        noteStamp(operation.stamp, of: operation.replica)
    }

    /// Adds local or received paragraph operations.
    mutating func add(_ operations: [ParagraphOperation]) {
        for operation in operations { add(operation) }
    }

    /// Adds a local or received paragraph operation.
    mutating func add(_ operation: ParagraphOperation) {
        guard paragraphs.insert(operation) else { return }
        noteWinner(operation)
        noteStamp(operation.stamp, of: operation.replica)
    }

    /// Takes in every operation of `other` (set union).
    mutating func merge(_ other: NoteFormatting) {
        marks.formUnion(other.marks)
        hasMarksGrowingAtStart = hasMarksGrowingAtStart || other.hasMarksGrowingAtStart
        for operation in other.paragraphs where paragraphs.insert(operation) { noteWinner(operation) }
        for entry in other.authorStamps { noteStamp(entry.stamp, of: entry.author) }
    }

    /// The operations whose stamp is later than what `known` lists for their author (all of an
    /// author it does not list): what a copy holding `known` lacks (§5, "Formatting").
    func operations(after known: [ReplicaID: HLCTimestamp]) -> NoteFormatting {
        var out = NoteFormatting()
        guard authorStamps.contains(where: { entry in known[entry.author].map { entry.stamp > $0 } ?? true }) else { return out }
        for mark in marks where known[mark.replica].map({ mark.stamp > $0 }) ?? true { out.add(mark) }
        out.add(paragraphs.filter { operation in known[operation.replica].map { operation.stamp > $0 } ?? true })
        return out
    }

    /// Raises `author`'s latest stamp to `stamp`.
    private mutating func noteStamp(_ stamp: HLCTimestamp, of author: ReplicaID) {
        // Formatting one device made (nearly every note): its entry, no search.
        if authorStamps.count == 1, authorStamps[0].author == author {
            if authorStamps[0].stamp < stamp { authorStamps[0].stamp = stamp }
            return
        }
        let (index, found) = authorIndex(author)
        if found {
            if authorStamps[index].stamp < stamp { authorStamps[index].stamp = stamp }
        } else {
            authorStamps.insert(AuthorStamp(author: author, stamp: stamp), at: index)
        }
    }

    /// The largest stamp of any operation (nil when there is none).
    var latestStamp: HLCTimestamp? {
        authorStamps.lazy.map(\.stamp).max()
    }

    /// The latest stamp listed for `author` (nil when it has no operation here).
    func latestStamp(of author: ReplicaID) -> HLCTimestamp? {
        let (index, found) = authorIndex(author)
        return found ? authorStamps[index].stamp : nil
    }

    /// Where `author` is in ``authorStamps`` (ordered by unsigned id), or where it would go.
    private func authorIndex(_ author: ReplicaID) -> (index: Int, found: Bool) {
        var low = 0
        var high = authorStamps.count
        while low < high {
            let middle = (low + high) / 2
            if authorStamps[middle].author.rawValue < author.rawValue { low = middle + 1 } else { high = middle }
        }
        return (low, low < authorStamps.count && authorStamps[low].author == author)
    }

    /// The operations this set holds and `other` does not (what a copy gained since `other`).
    func subtracting(_ other: NoteFormatting) -> NoteFormatting {
        var out = NoteFormatting()
        for mark in marks where !other.marks.contains(mark) { out.add(mark) }
        out.add(paragraphs.filter { !other.paragraphs.contains($0) })
        return out
    }

    /// Makes `operation` its key and attribute's winner when it wins over the current one.
    private mutating func noteWinner(_ operation: ParagraphOperation) {
        // One lookup of the key (a new key gets its list here, with this operation).
        paragraphWinners.updateWinners(of: operation.key) { Self.noteWinner(operation, in: &$0) }
    }

    private static func noteWinner(_ operation: ParagraphOperation, in winners: inout [ParagraphOperation]) {
        let name = operation.attribute.name
        for i in winners.indices {
            let listed = winners[i].attribute.name
            if listed == name {
                if operation.wins(over: winners[i]) { winners[i] = operation }
                return
            }
            if listed > name {
                winners.insert(operation, at: i)
                return
            }
        }
        winners.append(operation)
    }
}

/// A stretch of visible text with one set of resolved attributes.
struct FormattedRun: Hashable, Sendable {
    /// Unicode-scalar offsets of the stretch.
    var scalars: Range<Int>
    /// Mark name to value, for the marks in force (unmarked kinds absent).
    var marks: [String: String]
    /// The attributes of the paragraph the characters belong to (a newline belongs to the
    /// paragraph it ends).
    var paragraph: ParagraphAttributes
}

extension NoteFormatting {
    /// Every element an operation names (boundaries, cores, paragraph newlines): what compaction
    /// keeps (Docs/FORMAT.md §10.6).
    func namedElements() -> [ElementID] {
        var out: [ElementID] = []
        for mark in marks {
            out += [mark.first, mark.last]
            for boundary in [mark.start, mark.end] {
                switch boundary {
                case .before(let id), .after(let id): out.append(id)
                case .documentStart, .documentEnd: break
                }
            }
        }
        for paragraph in paragraphs {
            if case .newline(let id) = paragraph.key { out.append(id) }
        }
        return out
    }
}
