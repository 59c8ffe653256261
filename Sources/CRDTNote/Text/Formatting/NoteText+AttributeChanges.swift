extension NoteText {
    /// The attributes of every visible scalar, in order. O(n) in the elements ever inserted
    /// plus the elements the operations cover (the reference resolution).
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's index cannot be built.
    func scalarAttributes() throws(NoteTextError) -> [TextAttributes] {
        if formatting.isEmpty { return Array(repeating: TextAttributes(), count: scalarCount) }
        var out: [TextAttributes] = []
        out.reserveCapacity(scalarCount)
        for run in try formatting.attributes(of: self) {
            out += repeatElement(TextAttributes(run), count: run.scalars.count)
        }
        return out
    }

    /// The attributes before a change, for ``patch(replacing:attributesBefore:inserted:)``: nil
    /// when the note has no formatting and the change brings none (`incoming`), so plain notes
    /// pay nothing.
    func attributesBeforeChange(bringing incoming: NoteFormatting = NoteFormatting()) throws(NoteTextError) -> [TextAttributes]? {
        formatting.isEmpty && incoming.isEmpty ? nil : try scalarAttributes()
    }

    /// A patch of `replacements` with the attribute changes that take a view from `before`
    /// (the attributes of the text before them; nil: the note had no formatting and has none
    /// now) to this note's attributes. Text the replacements inserted is taken to carry
    /// `inserted` in the view (no attributes, or the typing attributes the view gave it).
    func patch(replacing replacements: [TextReplacement], attributesBefore before: [TextAttributes]?,
               inserted: TextAttributes = TextAttributes()) throws(NoteTextError) -> TextPatch {
        guard let before else { return TextPatch(replacements: replacements) }
        var view = before
        for replacement in replacements {
            let count = replacement.text.unicodeScalars.count
            view.replaceSubrange(replacement.scalarRange, with: repeatElement(inserted, count: count))
        }
        let after = try scalarAttributes()
        guard view.count == after.count else {
            throw NoteTextError(.corruptSnapshot, "the patch gives \(view.count) scalars, the text holds \(after.count)")
        }
        var changes: [TextAttributeChange] = []
        var utf16 = 0
        for (i, scalar) in string.unicodeScalars.enumerated() {
            let width = scalar.utf16.count
            defer { utf16 += width }
            guard view[i] != after[i] else { continue }
            if let last = changes.last, last.scalarRange.upperBound == i, last.attributes == after[i] {
                changes[changes.count - 1].scalarRange = last.scalarRange.lowerBound..<i + 1
                changes[changes.count - 1].utf16Range = last.utf16Range.lowerBound..<utf16 + width
            } else {
                changes.append(TextAttributeChange(utf16Range: utf16..<utf16 + width, scalarRange: i..<i + 1, attributes: after[i]))
            }
        }
        return TextPatch(replacements: replacements, attributeChanges: changes)
    }
}

extension TextAttributes {
    /// The attributes of a resolved run (kinds this release does not know are left out).
    init(_ run: FormattedRun) {
        self.init(marks: TextMarkKind.allCases.compactMap { kind in run.marks[kind.rawValue].map { TextMark(kind: kind, value: $0) } },
                  paragraph: run.paragraph)
    }
}
