/// Typing into a formatted note without resolving it again: the attributes of text typed at a
/// caret follow from the winners of the character before it (Docs/FORMAT.md §10.4). Text typed
/// locally is an element no operation saw (rule 1 does not take it) whose left origin is the
/// visible character before it; while no operation grows at its start (rule 3), an operation
/// covers it exactly when it covers that character and its range ends after the new text
/// (rule 2). So each mark name's winner there wins on the typed text too, if its range ends
/// after it; when one does not (typing right after a link), the latest other operation of
/// that name covering that character and ending after the typed text takes over. Where the
/// end of a range cannot be placed, these functions answer nil (the caller resolves the note).
/// Other characters keep their attributes: no rule reads visibility, and with no newline
/// typed or deleted every paragraph keeps its key.
extension AttributeRuns {
    /// These runs (the note's index before the local edit `edit`) updated for it, `sequence`
    /// and `formatting` being the note after it; nil when the rules above cannot tell (then
    /// the note is resolved). O(r) to rebuild the run arrays, plus O(log n) per mark name at
    /// the caret: no operation is weighed again.
    func updated(for edit: LocalTextEdit, in sequence: TextSequence, formatting: NoteFormatting) -> AttributeRuns? {
        let a = edit.replaced.lowerBound
        guard edit.replaced.upperBound <= scalarCount,
              scalarCount - edit.replaced.count + edit.inserted == sequence.scalarCount else { return nil }
        var typed: (attributes: TextAttributes, winners: [String: MarkWinner])?
        if edit.inserted > 0 {
            // The first typed character: the ones after it lie next to it in the order.
            let typedPosition = sequence.position(ofScalar: a)
            guard let winners = typedWinners(at: a, formatting: formatting, in: sequence, endsAfterTyped: { end in
                sequence.position(of: end.replica, seq: end.seq).map { typedPosition < $0 }
            }) else { return nil }
            typed = (TextAttributes(winners: winners, paragraph: typedParagraph(replacing: edit.replaced, in: sequence, formatting: formatting)),
                     winners)
        }
        return replacing(edit.replaced, inserted: edit.inserted, carrying: typed, in: sequence)
    }

    /// The winners, per mark name, of text typed at caret `caret` (the characters from it on
    /// replaced, if any) in `sequence`: those of the character before it whose ranges end after
    /// the typed text; for a name whose winner there ends before it (typing right after a link),
    /// the latest other operation of that name that covers that character and ends after the
    /// typed text, if any. `endsAfterTyped(e)` says whether the element `e` lies after the typed
    /// text (nil: the caller cannot tell). Nil when that is not certain, or when some operation
    /// grows at its start.
    func typedWinners(at caret: Int, formatting: NoteFormatting, in sequence: TextSequence,
                      endsAfterTyped: (ElementID) -> Bool?) -> [String: MarkWinner]? {
        guard !formatting.hasMarksGrowingAtStart else { return nil }
        // At the start of the text the typed text has no left origin: no operation covers it.
        guard caret > 0, count > 0 else { return [:] }
        let left = self.winners[run(atScalar: caret - 1)]
        var winners = left
        for (name, winner) in left {
            switch Self.endsAfter(winner.end, endsAfterTyped) {
            case true?: continue
            case nil: return nil
            case false?:
                guard let other = Self.latest(name, covering: caret - 1, endingAfterTyped: endsAfterTyped,
                                              formatting: formatting, in: sequence) else { return nil }
                winners[name] = other
            }
        }
        return winners
    }

    /// Whether a range ending at `end` takes text typed where `endsAfterTyped` says.
    private static func endsAfter(_ end: MarkBoundary, _ endsAfterTyped: (ElementID) -> Bool?) -> Bool? {
        switch end {
        case .documentEnd: true
        case .documentStart: nil
        // `.after(e)` keeps text typed before `e` inside as `.before(e)` does.
        case .before(let element), .after(let element): endsAfterTyped(element)
        }
    }

    /// Of the operations named `name`, the latest that covers visible scalar `scalar` of
    /// `sequence` and ends after the typed text: `.some(nil)` when none does, nil when an
    /// operation covering it has an end the caller cannot place. O(operations) plus the window
    /// of each one whose core starts at or before that scalar and ends after it.
    private static func latest(_ name: String, covering scalar: Int, endingAfterTyped endsAfterTyped: (ElementID) -> Bool?,
                               formatting: NoteFormatting, in sequence: TextSequence) -> MarkWinner?? {
        let position = sequence.position(ofScalar: scalar)
        var best: MarkOperation?
        for operation in formatting.marks where operation.name == name {
            if let best, !operation.wins(over: best) { continue }
            // Its core must start at or before the character (no operation grows at its start).
            guard let first = sequence.position(of: operation.first.replica, seq: operation.first.seq), first <= position else { continue }
            let after = endsAfter(operation.end, endsAfterTyped)
            if after == false { continue }
            guard operation.coveredScalars(in: sequence).contains(where: { $0.contains(scalar) }) else { continue }
            guard after == true else { return nil }
            best = operation
        }
        return .some(best.map(MarkWinner.init))
    }

    /// The paragraph attributes of text typed in place of the scalars `replaced` (no newline
    /// among them): those of the paragraph holding the caret, read from the character after
    /// the replaced scalars or the one before the caret when that is not a newline, else
    /// from the paragraph's key. `sequence` holds the scalars before the caret as these runs do.
    func typedParagraph(replacing replaced: Range<Int>, in sequence: TextSequence, formatting: NoteFormatting) -> ParagraphAttributes {
        if replaced.upperBound < scalarCount { return attributes[run(atScalar: replaced.upperBound)].paragraph }
        let caret = replaced.lowerBound
        if caret > 0, sequence.newlines(inScalars: caret - 1..<caret).isEmpty { return attributes[run(atScalar: caret - 1)].paragraph }
        return formatting.resolvedAttributes(of: NoteFormatting.paragraphKey(atScalar: caret, in: sequence))
    }

    /// These runs with the scalars `replaced` removed and `inserted` scalars carrying `typed`
    /// put in their place, over the text of `sequence` (the note after that change). O(r).
    private func replacing(_ replaced: Range<Int>, inserted: Int, carrying typed: (attributes: TextAttributes, winners: [String: MarkWinner])?,
                           in sequence: TextSequence) -> AttributeRuns {
        var out = AttributeRuns(scalarCount: sequence.scalarCount, utf16Count: sequence.utf16Count)
        out.reserveCapacity(count + 2)
        var i = 0
        while i < count, scalarStarts[i] < replaced.lowerBound {
            out.append(scalarStarts[i], utf16Starts[i], attributes[i], winners[i])
            i += 1
        }
        if inserted > 0, let typed {
            out.append(replaced.lowerBound, sequence.utf16Offset(ofScalar: replaced.lowerBound), typed.attributes, typed.winners)
        }
        guard replaced.upperBound < scalarCount else { return out }
        let shift = sequence.scalarCount - scalarCount
        let shift16 = sequence.utf16Count - utf16Count
        // The run holding the first scalar after the replaced ones starts there now.
        i = run(atScalar: replaced.upperBound)
        let start = replaced.upperBound + shift
        out.append(start, scalarStarts[i] == replaced.upperBound ? utf16Starts[i] + shift16 : sequence.utf16Offset(ofScalar: start),
                   attributes[i], winners[i])
        for j in i + 1..<count { out.append(scalarStarts[j] + shift, utf16Starts[j] + shift16, attributes[j], winners[j]) }
        return out
    }

    /// Room for `n` runs in every array.
    private mutating func reserveCapacity(_ n: Int) {
        scalarStarts.reserveCapacity(n)
        utf16Starts.reserveCapacity(n)
        attributes.reserveCapacity(n)
        winners.reserveCapacity(n)
    }
}
