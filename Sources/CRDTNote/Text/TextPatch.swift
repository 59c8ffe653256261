/// How the visible text of a note changed: the replacements to apply, in order, to the old
/// text to get the new one, then the attribute changes to apply to the result. Returned by
/// ``NoteText/merge(_:)``, ``NoteText/apply(_:)``, ``NoteText/undo()`` and ``NoteText/redo()``
/// so a text view can update only what changed, formatting included.
///
/// Each replacement's ranges refer to the text as it is after the replacements before it in
/// the list. Adjacent changes are coalesced; an empty patch means nothing visible changed.
/// After the replacements, a character no attribute change covers keeps the attributes it had,
/// and text a replacement put in has none (no marks, body-text paragraph).
public struct TextPatch: Sendable, Equatable {
    /// The replacements, to be applied in order.
    public var replacements: [TextReplacement]
    /// The stretches of the new text (after every replacement) whose attributes changed, with
    /// their new attributes; not overlapping, in order. Empty for a note without formatting.
    public var attributeChanges: [TextAttributeChange]

    /// A patch made of `replacements` (applied in order) and then `attributeChanges`.
    package init(replacements: [TextReplacement] = [], attributeChanges: [TextAttributeChange] = []) {
        self.replacements = replacements
        self.attributeChanges = attributeChanges
    }

    /// True when neither the visible text nor its attributes changed.
    public var isEmpty: Bool { replacements.isEmpty && attributeChanges.isEmpty }
}

/// The attributes of one character: its marks and the attributes of its paragraph.
public struct TextAttributes: Hashable, Sendable {
    /// The marks in force, in ``TextMarkKind`` order.
    public var marks: [TextMark]
    /// The attributes of the character's paragraph (a newline belongs to the paragraph it ends).
    public var paragraph: ParagraphAttributes

    /// Attributes with `marks` (any order) in a paragraph with `paragraph`; plain body text by default.
    public init(marks: [TextMark] = [], paragraph: ParagraphAttributes = ParagraphAttributes()) {
        self.marks = marks.sorted { $0.kind.rank < $1.kind.rank }
        self.paragraph = paragraph
    }

    /// The mark of `kind` in force, if any.
    public func mark(_ kind: TextMarkKind) -> TextMark? { marks.first { $0.kind == kind } }
}

/// One attribute change of a ``TextPatch``: the characters of a stretch of the new text now
/// carry `attributes` (all of them: marks not listed are off).
public struct TextAttributeChange: Sendable, Equatable {
    /// The stretch in UTF-16 code units of the text after the patch's replacements.
    public var utf16Range: Range<Int>
    /// The same stretch in Unicode scalars.
    public var scalarRange: Range<Int>
    /// The stretch's attributes from now on.
    public var attributes: TextAttributes

    /// A change of `scalarRange` / `utf16Range` (the same stretch) to `attributes`.
    package init(utf16Range: Range<Int>, scalarRange: Range<Int>, attributes: TextAttributes) {
        self.utf16Range = utf16Range
        self.scalarRange = scalarRange
        self.attributes = attributes
    }
}

extension TextMarkKind {
    /// The kind's place in ``TextMarkKind/allCases``: the order marks are listed in.
    var rank: Int { TextMarkKind.allCases.firstIndex(of: self) ?? 0 }
}
