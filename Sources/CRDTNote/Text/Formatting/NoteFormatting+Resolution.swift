/// The operation that wins a mark name on some characters: what it sets (nil: it removes the
/// mark) and what a later operation must beat (``StampedFormattingOperation/wins(over:)``).
struct MarkWinner: Hashable, Sendable, StampedFormattingOperation {
    var stamp: HLCTimestamp
    var replica: ReplicaID
    var value: String?
    /// Where the operation's range ends (text typed inside the range before it may join it).
    var end: MarkBoundary

    init(_ operation: MarkOperation) {
        stamp = operation.stamp
        replica = operation.replica
        value = operation.value
        end = operation.end
    }
}

extension NoteFormatting {
    /// The visible text of `note` cut into maximal runs of equal resolved attributes (mark
    /// kinds of newer releases included), in order; empty for an empty note. What the
    /// attributes index holds (``AttributeRuns/init(resolving:in:)``), in the form tests and
    /// tools compare.
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's index cannot be built.
    func attributes(of note: NoteText) throws(NoteTextError) -> [FormattedRun] {
        let index = AttributeRuns(resolving: self, in: try note.indexForReading())
        var runs: [FormattedRun] = []
        for i in 0..<index.count {
            let marks = index.winners[i].compactMapValues(\.value)
            let paragraph = index.attributes[i].paragraph
            if let last = runs.last, last.marks == marks, last.paragraph == paragraph {
                runs[runs.count - 1].scalars = last.scalars.lowerBound..<index.scalars(ofRun: i).upperBound
            } else {
                runs.append(FormattedRun(scalars: index.scalars(ofRun: i), marks: marks, paragraph: paragraph))
            }
        }
        return runs
    }

    /// The attributes of every paragraph key that has operations: per key and attribute name,
    /// the winning operation's value (keys of deleted newlines included; nothing reads them).
    func resolvedParagraphs() -> [ParagraphKey: ParagraphAttributes] {
        paragraphWinners.mapValues(Self.attributes(of:))
    }

    /// The attributes of the paragraph with `key` (the defaults when none is set): O(1).
    func resolvedAttributes(of key: ParagraphKey) -> ParagraphAttributes {
        paragraphWinners[key].map(Self.attributes(of:)) ?? ParagraphAttributes()
    }

    /// The attributes the winning operations (by attribute name) give a paragraph.
    private static func attributes(of winners: [ParagraphOperation]) -> ParagraphAttributes {
        var attributes = ParagraphAttributes()
        for operation in winners { attributes.apply(operation.attribute) }
        return attributes
    }
}
