import Testing
import CRDTNote

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
