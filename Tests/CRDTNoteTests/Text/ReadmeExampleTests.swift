import Testing
import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// The README's usage example, verbatim, so it always compiles and does what it says.
@Test func readmeUsageExample() throws {
    var phone = NoteText("Groceries", replica: 1)         // device 1
    var laptop = phone.forked(as: 2)                      // device 2 starts from the same state
    try phone.insert(": milk", atScalarOffset: 9)         // edited offline on the phone...
    laptop.setText("Groceries and eggs")                  // ...and on the laptop
    phone.merge(laptop)                                   // exchange states in any order
    laptop.merge(phone)
    assert(phone.string == laptop.string)                 // "Groceries: milk and eggs"
    let payload = phone.encodedSnapshot()                 // bytes for the record's payload field
    let restored = try NoteText(snapshot: payload, replica: 3)
    print(restored.string)

    #expect(phone.string == "Groceries: milk and eggs")
    #expect(laptop.string == phone.string)
    #expect(restored.string == phone.string)
}

/// The snippets of Docs/GETTING-STARTED.md, so the guide stays true.
@Test func gettingStartedSnippets() throws {
    let device = ReplicaID.random()
    var note = NoteText(replica: device)
    try note.insert("Hello", atScalarOffset: 0)
    try note.insert(", world", atScalarOffset: 5)
    try note.deleteScalars(in: 0..<1)
    try note.insert("h", atScalarOffset: 0)
    #expect(note.string == "hello, world")

    var phone = NoteText("Shopping", replica: 1)
    var laptop = phone.forked(as: 2)
    try phone.insert(" list", atScalarOffset: 8)
    try laptop.insert("My ", atScalarOffset: 0)
    let changes = laptop.changes(since: phone.version)
    let bytes = changes.encoded()
    var viaChanges = phone
    try viaChanges.apply(NoteChanges(encoded: bytes))
    phone.merge(laptop)
    laptop.merge(phone)
    #expect(phone.string == "My Shopping list")
    #expect(laptop.string == "My Shopping list")
    #expect(viaChanges.string == "My Shopping list")

    let payload: [UInt8] = note.encodedSnapshot()
    let loaded = try NoteText(snapshot: payload, replica: device)
    #expect(loaded.string == note.string)

    let clock = HybridLogicalClock(physicalClock: .fixed(1_700_000_000_000))
    var timed = NoteText(replica: 1, clock: clock)
    try timed.insert("x", atScalarOffset: 0)
    #expect(timed.lastModified?.milliseconds == 1_700_000_000_000)
}
