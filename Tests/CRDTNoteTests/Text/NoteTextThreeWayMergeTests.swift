import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// `NoteText.applyChanges(from:to:)`: a device's plain-text change applied to a note as the
/// three-way text merge, as local edits of the note's replica.
@Suite struct NoteTextThreeWayMergeTests {
    /// Elements (visible and deleted) per replica, from the note's canonical stretches.
    static func elements(_ note: NoteText) throws -> [ReplicaID: (visible: Int, deleted: Int)] {
        var out: [ReplicaID: (visible: Int, deleted: Int)] = [:]
        try note.forEachStretch { s in
            var c = out[s.replica] ?? (0, 0)
            if s.deleted { c.deleted += Int(s.end - s.start) } else { c.visible += Int(s.end - s.start) }
            out[s.replica] = c
        }
        return out
    }

    static let ancestor = "Groceries\n- milk\n- eggs\n- bread\n"
    static let mine = "Groceries\n- oat milk\n- eggs\n- salt\n"

    /// Theirs, made by two replicas editing the ancestor and merging.
    static func theirs() throws -> (NoteText, NoteText) {
        let base = try NoteText(ancestor, replica: .test(1))
        var laptop = base.forked(as: .test(2)), tablet = base.forked(as: .test(3))
        try laptop.insert("- apples\n", atScalarOffset: laptop.scalarCount)
        try tablet.deleteScalars(in: 17..<24)  // "- eggs\n"
        return (try laptop.merging(tablet), try tablet.merging(laptop))
    }

    @Test func appliesTheMergeAsEditsOfTheNotesReplica() throws {
        var (note, other) = try Self.theirs()
        #expect(note.string == "Groceries\n- milk\n- bread\n- apples\n")
        let before = try Self.elements(note)
        try note.applyChanges(from: Self.ancestor, to: Self.mine)
        #expect(note.string == "Groceries\n- oat milk\n- salt\n- apples\n")
        let after = try Self.elements(note)
        // Only the note's replica (laptop, 2) inserted: "oat " and "salt"; the rest is deletions
        // of existing elements ("bread").
        for replica in [ReplicaID.test(1), .test(3)] {
            #expect(after[replica].map { $0.visible + $0.deleted } == before[replica].map { $0.visible + $0.deleted })
        }
        let laptopBefore = before[.test(2)].map { $0.visible + $0.deleted } ?? 0
        #expect(after[.test(2)].map { $0.visible + $0.deleted } == laptopBefore + 8)
        #expect(after[.test(1)]?.deleted == (before[.test(1)]?.deleted ?? 0) + 5)

        // Merging with another copy of theirs converges, in both orders.
        let ab = try note.merging(other), ba = try other.merging(note)
        #expect(ab.string == note.string)
        #expect(ba.string == note.string)
        try other.applyChanges(from: Self.ancestor, to: Self.mine)
        #expect(other.string == note.string)
    }

    @Test func unchangedMineChangesNothing() throws {
        var (note, _) = try Self.theirs()
        let before = try Self.elements(note)
        try note.applyChanges(from: Self.ancestor, to: Self.ancestor)
        #expect(note.string == "Groceries\n- milk\n- bread\n- apples\n")
        #expect(try Self.elements(note).mapValues { [$0.visible, $0.deleted] } == before.mapValues { [$0.visible, $0.deleted] })
    }

    @Test func refusesPastTheLimitsChangingNothing() throws {
        var (note, _) = try Self.theirs()
        let total = try Self.elements(note).values.reduce(0) { $0 + $1.visible + $1.deleted }
        note.maximumElements = total + 3
        #expect(throws: NoteTextError.self) {
            try note.applyChanges(from: Self.ancestor, to: Self.mine)
        }
        do {
            try note.applyChanges(from: Self.ancestor, to: Self.mine)
        } catch {
            #expect(error.code == .tooLarge)
        }
        #expect(note.string == "Groceries\n- milk\n- bread\n- apples\n")
    }

    @Test func isOneUndoStep() throws {
        var (note, _) = try Self.theirs()
        note.undoLimit = 10
        try note.applyChanges(from: Self.ancestor, to: Self.mine)
        try note.undo()
        #expect(note.string == "Groceries\n- milk\n- bread\n- apples\n")
    }
}
