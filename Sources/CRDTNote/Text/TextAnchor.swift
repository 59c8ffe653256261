/// A position in a note's text named by the character it is attached to rather than by an
/// offset, so it stays put while this device and others edit and merge: a cursor, the ends of
/// a selection, a bookmark.
///
/// Make one with ``NoteText/anchor(atUTF16:bias:)`` (or ``NoteText/anchor(atScalar:bias:)``) and
/// resolve it later with ``NoteText/utf16Offset(of:)``. The ``Bias`` says which neighbour of the
/// position it holds on to. When that character is deleted, the anchor sits where it was.
/// ``start`` and ``end`` stay at the start and the end of the text.
///
/// Anchors are small values: ``encoded`` is a few bytes (varints), and the `Codable` form is a
/// short string such as `"a42.17"`. Both decode on any device holding the note.
///
/// ```swift
/// let caret = try note.anchor(atUTF16: 5, bias: .before)
/// try note.merge(fromLaptop)
/// let offset = note.utf16Offset(of: caret)   // still right after the same character
/// ```
public struct TextAnchor: Sendable, Hashable, CustomStringConvertible {
    /// Which character next to the position the anchor holds on to.
    public enum Bias: UInt8, Sendable, Hashable, Codable {
        /// Attached to the character before the position: text later inserted exactly at the
        /// position appears after the anchor.
        case before
        /// Attached to the character after the position: text later inserted exactly at the
        /// position appears before the anchor.
        case after
    }

    /// What the anchor is attached to.
    enum Target: Hashable, Sendable {
        /// The start of the text (before every character, forever).
        case start
        /// The end of the text (after every character, forever).
        case end
        /// The character `seq` inserted by `replica`.
        case character(replica: ReplicaID, seq: UInt32)
    }

    let target: Target
    /// Which neighbour of the position the anchor holds on to.
    public let bias: Bias

    init(target: Target, bias: Bias) {
        self.target = target
        self.bias = bias
    }

    /// The start of the text: offset 0 whatever is inserted or deleted (offset 0 with ``Bias/before``).
    public static let start = TextAnchor(target: .start, bias: .before)

    /// The end of the text: the text's length whatever is inserted or deleted (the end with
    /// ``Bias/after``).
    public static let end = TextAnchor(target: .end, bias: .after)

    /// The replica that inserted the character the anchor is attached to (nil for ``start`` and ``end``).
    package var replica: ReplicaID? {
        if case .character(let replica, _) = target { return replica }
        return nil
    }

    /// That replica's sequence number for the character (nil for ``start`` and ``end``).
    package var sequenceNumber: UInt32? {
        if case .character(_, let seq) = target { return seq }
        return nil
    }

    /// `"start"`, `"end"`, or the bias (`b` before, `a` after), the replica and the sequence number:
    /// `"a42.17"`. This is also the `Codable` form.
    public var description: String {
        switch target {
        case .start: return "start"
        case .end: return "end"
        case .character(let replica, let seq): return (bias == .before ? "b" : "a") + "\(replica.rawValue).\(seq)"
        }
    }
}
