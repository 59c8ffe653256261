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
