import Foundation

extension NoteText {
    /// After a local edit put `utf8` at visible scalar `offset`: every newline it typed splits a
    /// paragraph, and the paragraph after it gets the attributes of the one it was split from
    /// (Docs/FORMAT.md §10.5, "Split"), as an editor keeps a heading or a list item's kind on
    /// both halves. Called only when the note has paragraph operations and `utf8` holds a
    /// newline (``typesNewline(_:)``), right after this replica inserted `utf8`. The text edit is made
    /// either way: when the operations would pass ``NoteLimits/maximumFormattingOperations``,
    /// the new paragraphs start without attributes.
    mutating func keepParagraphAttributes(insertedAt offset: Int, utf8: UnsafeBufferPointer<UInt8>) {
        // The inserted scalars are this replica's newest elements, in order: a newline's id
        // is its place in `utf8`, no search of the tree.
        guard let local = localIndexIfAny else { return }
        var inserted = 0
        for byte in utf8 where byte & 0xC0 != 0x80 { inserted += 1 }
        let firstSeq = sequence.nextSeq[Int(local)] &- UInt32(inserted)
        var scalar = 0
        // What the paragraph being split carries: found for the first newline; a later one
        // splits the paragraph the previous one started, which was just given the same.
        var attributes: [ParagraphAttribute]?
        for byte in utf8 where byte & 0xC0 != 0x80 {
            defer { scalar += 1 }
            guard byte == 0x0A else { continue }
            let copied = attributes ?? formatting.attributesToCopy(newlineAt: offset + scalar, in: sequence)
            attributes = copied
            guard !copied.isEmpty else { continue }
            guard formatting.operationCount + copied.count <= NoteLimits.default.maximumFormattingOperations else { return }
            let key = ParagraphKey.newline(ElementID(replica: replica, seq: firstSeq &+ UInt32(scalar)))
            let stamp = clock.tick()
            // One by one: no array of operations per newline typed.
            for attribute in copied { formatting.add(ParagraphOperation(key: key, attribute: attribute, stamp: stamp, replica: replica)) }
        }
    }
}

extension NoteText {
    /// Whether inserted `utf8` holds a newline: inlined into every edit of a note with
    /// paragraph settings, so a keystroke (one byte) costs a comparison, not a call.
    @inline(__always)
    static func typesNewline(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        if utf8.count == 1 { return utf8[0] == 0x0A }
        guard utf8.count > 1, let base = utf8.baseAddress else { return false }
        return memchr(base, 0x0A, utf8.count) != nil
    }
}
