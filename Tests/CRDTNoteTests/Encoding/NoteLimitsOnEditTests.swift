import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Local edits are held to the limits a note was loaded with (``NoteText/init(snapshot:replica:clock:limits:)``),
/// as ``NoteTextError/Code/tooLarge`` documents, not to the defaults whatever the caller asked for;
/// forks keep them, and plain-text folding in a merger uses the merger's.
@Suite struct NoteLimitsOnEditTests {
    static let small = NoteLimits(maximumElements: 12)

    /// A snapshot of a note with 10 elements (8 visible), read with `limits`.
    static func loaded(limits: NoteLimits) throws -> NoteText {
        var note = try NoteText("0123456789", replica: .test(1))
        try note.deleteScalars(in: 3..<5)
        return try NoteText(snapshot: note.encodedSnapshot(), replica: .test(2), limits: limits)
    }

    @Test func editsOfALoadedNoteStopAtItsElementLimit() throws {
        var note = try Self.loaded(limits: Self.small)
        try note.insert("ab", atScalarOffset: 0)   // 12 elements: at the limit
        #expect(note.string == "ab01256789")
        // The oracle is the limit itself: 12 elements ever inserted, tombstones included.
        let error = #expect(throws: NoteTextError.self) { try note.insert("c", atScalarOffset: 0) }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("12 elements") == true, "\(String(describing: error))")
        #expect(note.string == "ab01256789", "a refused edit changes nothing")
        // setText and a fork are held to the same limits; deleting stays possible.
        #expect(throws: NoteTextError.self) { try note.setText("ab01256789!") }
        var fork = note.forked(as: .test(3))
        #expect(throws: NoteTextError.self) { try fork.insert("d", atScalarOffset: 1) }
        try fork.deleteScalars(in: 0..<2)
        #expect(fork.string == "01256789")
    }

    @Test func theDefaultLimitsStillAllowMore() throws {
        var note = try Self.loaded(limits: .default)
        try note.insert(String(repeating: "x", count: 1000), atScalarOffset: 0)
        #expect(note.scalarCount == 1008)
    }
}
