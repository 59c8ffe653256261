/// A point between elements of a note's order (tombstones included) where a mark starts or
/// ends. Docs/FORMAT.md, §10.1.
enum MarkBoundary: Hashable, Sendable {
    /// Before every element, forever.
    case documentStart
    /// After every element, forever.
    case documentEnd
    /// The gap just before the element: text later inserted right before it lies outside.
    case before(ElementID)
    /// The gap just after the element: text later inserted right after it lies outside.
    case after(ElementID)
}

/// Whether text typed at an end of a marked range joins it (Docs/FORMAT.md, §10.2).
struct MarkExpansion: Hashable, Sendable {
    /// Text typed just before the range's first character joins it.
    var growsAtStart: Bool
    /// Text typed just after the range's last character joins it.
    var growsAtEnd: Bool
}

/// A kind of inline mark: a name (the key every operation and reader uses) and its expansion
/// rule. New kinds need no format change: an operation carries its name and its anchors.
struct MarkKind: Hashable, Sendable {
    var name: String
    var expansion: MarkExpansion

    static let bold = MarkKind(name: "bold", expansion: .atEnd)
    static let italic = MarkKind(name: "italic", expansion: .atEnd)
    static let underline = MarkKind(name: "underline", expansion: .atEnd)
    static let strikethrough = MarkKind(name: "strikethrough", expansion: .atEnd)
    /// Value: a colour name or `#rrggbb`.
    static let highlight = MarkKind(name: "highlight", expansion: .atEnd)
    static let code = MarkKind(name: "code", expansion: .never)
    /// Value: the URL.
    static let link = MarkKind(name: "link", expansion: .never)

    /// The value of kinds that are only on or off.
    static let on = "true"
}

extension MarkExpansion {
    static let atEnd = MarkExpansion(growsAtStart: false, growsAtEnd: true)
    static let never = MarkExpansion(growsAtStart: false, growsAtEnd: false)
}

/// One mark or unmark operation: set (or, with a nil value, remove) mark `name` on the
/// characters between `start` and `end`. Docs/FORMAT.md, §10.1–10.4.
struct MarkOperation: Hashable, Sendable {
    /// The kind's name (``MarkKind/name``).
    var name: String
    /// The value (``MarkKind/on`` for on/off kinds, the URL of a link); nil removes the mark.
    var value: String?
    var start: MarkBoundary
    var end: MarkBoundary
    /// The first and last characters visible in the range when the operation was made (its
    /// core, §10.4): together with the anchors they say which later text joins the range.
    var first: ElementID
    var last: ElementID
    /// What the author held of the core when it made the operation: for every replica with an
    /// element between `first` and `last` (tombstones included), how many elements of that
    /// replica its copy held (its `nextSeq`). An element of the core is one the operation was
    /// made on exactly when its replica is listed here with a count above its seq (§10.4).
    /// Held as a ``CoreVersion`` (no dictionary for a core of one replica's characters);
    /// ``coreVersion`` is its dictionary form.
    var core: CoreVersion
    var stamp: HLCTimestamp
    var replica: ReplicaID
}

/// A formatting operation stamped by its author: of two that compete for one character's
/// mark or one paragraph's attribute, the latest wins.
protocol StampedFormattingOperation {
    var stamp: HLCTimestamp { get }
    var replica: ReplicaID { get }
}

extension StampedFormattingOperation {
    /// Whether this operation wins over `other`: the later stamp, then the greater replica id
    /// compared unsigned.
    func wins(over other: some StampedFormattingOperation) -> Bool {
        (stamp, replica.rawValue) > (other.stamp, other.replica.rawValue)
    }
}

extension MarkOperation {
    /// Hashes ``identityWords``: a set of thousands of marks then hashes each in a few
    /// instructions, not through its core version and strings.
    func hash(into hasher: inout Hasher) {
        let (a, b) = identityWords
        hasher.combine(a)
        hasher.combine(b)
    }
}

extension MarkOperation: HashedOperation {
    /// The author and stamp, and the first and last elements, mixed into two words: copies
    /// that give one stamp to many different operations still spread over a table.
    var identityWords: (UInt64, UInt64) {
        (stamp.rawValue ^ (replica.rawValue &* 0x9E37_79B9_7F4A_7C15),
         UInt64(first.seq) | UInt64(last.seq) << 32 ^ (first.replica.rawValue &+ last.replica.rawValue &* 0x9E37_79B9_7F4A_7C15))
    }
}

extension MarkOperation: StampedFormattingOperation {
    /// Whether the element existed at the author when the operation was made, as far as the
    /// core goes (``coreVersion``): false for text typed inside the core later or concurrently.
    func sawCoreElement(_ id: ElementID) -> Bool {
        id.seq < core.count(of: id.replica)
    }

    /// An operation with the core version as a dictionary (what readers decode).
    init(name: String, value: String?, start: MarkBoundary, end: MarkBoundary, first: ElementID, last: ElementID,
         coreVersion: [ReplicaID: UInt32], stamp: HLCTimestamp, replica: ReplicaID) {
        self.init(name: name, value: value, start: start, end: end, first: first, last: last,
                  core: CoreVersion(coreVersion), stamp: stamp, replica: replica)
    }

    /// ``core`` as a dictionary: replica to the number of its elements the author held.
    var coreVersion: [ReplicaID: UInt32] { core.dictionary }
}

/// What a mark operation's author held of its core (``MarkOperation/core``): one replica and
/// count without allocating (a core typed by one device, nearly every one), else a dictionary
/// of two or more. Always in this normal form, so equal versions compare equal.
enum CoreVersion: Hashable, Sendable {
    case one(ReplicaID, UInt32)
    case many([ReplicaID: UInt32])

    /// The normal form of `version`.
    init(_ version: [ReplicaID: UInt32]) {
        if version.count == 1, let only = version.first { self = .one(only.key, only.value) } else { self = .many(version) }
    }

    /// How many elements of `replica` the author held (0 when not listed).
    func count(of replica: ReplicaID) -> UInt32 {
        switch self {
        case .one(let listed, let count): listed == replica ? count : 0
        case .many(let version): version[replica] ?? 0
        }
    }

    /// The version as a dictionary.
    var dictionary: [ReplicaID: UInt32] {
        switch self {
        case .one(let replica, let count): [replica: count]
        case .many(let version): version
        }
    }
}
