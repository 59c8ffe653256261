import Testing
import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// The README's usage example, verbatim, so it always compiles and does what it says.
@Test func readmeUsageExample() throws {
    let phoneID = ReplicaID.random()                      // made once per device, then kept (see below)
    var phone = try NoteText("milk", replica: phoneID)    // the phone's copy of a note
    var laptop = phone.forked(as: ReplicaID.random())     // the laptop's copy: same state, its own id
    try phone.insert("Groceries: ", atScalarOffset: 0)    // edited offline on the phone...
    try laptop.setText("milk and eggs")                   // ...and on the laptop
    try phone.merge(laptop)                               // exchange states in any order
    try laptop.merge(phone)
    assert(phone.string == laptop.string)                 // "Groceries: milk and eggs"
    let payload = phone.encodedSnapshot()                 // bytes for the record's payload field
    let restored = try NoteText(snapshot: payload, replica: phoneID)
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

    let phoneID = ReplicaID.random(), laptopID = ReplicaID.random()
    var phone = try NoteText("Shopping", replica: phoneID)
    var laptop = phone.forked(as: laptopID)
    try phone.insert(" list", atScalarOffset: 8)
    try laptop.insert("My ", atScalarOffset: 0)
    let changes = laptop.changes(since: phone.version)
    let bytes = changes.encoded()
    var viaChanges = phone
    try viaChanges.apply(NoteChanges(encoded: bytes))
    try phone.merge(laptop)
    try laptop.merge(phone)
    #expect(phone.string == "My Shopping list")
    #expect(laptop.string == "My Shopping list")
    #expect(viaChanges.string == "My Shopping list")

    let payload: [UInt8] = note.encodedSnapshot()
    let loaded = try NoteText(snapshot: payload, replica: device)
    #expect(loaded.string == note.string)

    let clock = HybridLogicalClock(physicalClock: .fixed(1_700_000_000_000))
    var timed = NoteText(replica: device, clock: clock)
    try timed.insert("x", atScalarOffset: 0)
    #expect(timed.lastModified?.milliseconds == 1_700_000_000_000)
}

/// The README's usage example is the code of `readmeUsageExample` above, line for line.
@Test func readmeExampleMatchesItsTest() throws {
    let readme = try String(contentsOfFile: RepositoryPaths.root + "/README.md", encoding: .utf8)
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
    let opening = "```swift\nimport CRDTNote\n\n"
    let block = try #require(readme.range(of: opening))
    let blockEnd = try #require(readme.range(of: "\n```", range: block.upperBound..<readme.endIndex))
    let documented = readme[block.upperBound..<blockEnd.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
    let header = "@Test func readmeUsageExample() throws {\n"
    let body = try #require(source.range(of: header))
    let bodyEnd = try #require(source.range(of: "    print(restored.string)", range: body.upperBound..<source.endIndex))
    let tested = source[body.upperBound..<bodyEnd.lowerBound].split(separator: "\n").map { $0.dropFirst(4) }
    #expect(documented.map(String.init) == tested.map(String.init))
}
