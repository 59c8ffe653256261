import Testing
@testable import CRDTNote

@Test func libraryVersionIsSemantic() {
    let parts = CRDTNoteLibrary.version.split(separator: ".")
    #expect(parts.count == 3)
    #expect(parts.allSatisfy { Int($0) != nil })
}
