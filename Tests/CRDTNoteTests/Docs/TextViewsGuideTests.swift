import CRDTNote
import CRDTNoteTestSupport
import Foundation
import Testing

/// Docs/TEXT-VIEWS.md's code, compiled and run: every ```swift block of the guide (except those
/// marked `<!-- not compiled: why -->`, the UIKit and AppKit shells, or `<!-- compiled: FILE -->`,
/// the Apple-only samples .ci/typecheck-cloudkit compiles) must appear line for line in
/// this file, where it runs with the few names it needs defined around it.
@Suite("TEXT-VIEWS.md")
struct TextViewsGuideTests {
    let phoneID = ReplicaID.test(1), laptopID = ReplicaID.test(2)

    /// "The session": a stand-in view (UTF-16 units and a selected range) driven by the session.
    @Test func session() throws {
        let note = try NoteText("", replica: phoneID)
        var text: [UInt16] = Array("Hello".utf16)          // what the view shows after the user typed
        var selected = 0..<0
        var fromLaptop = note.forked(as: laptopID)
        try fromLaptop.insert("👋 ", atScalarOffset: 0)
        var session = NoteEditorSession(note: note, undoLimit: 100)
        // The view reports an edit before showing it (UITextViewDelegate.shouldChangeTextIn):
        try session.userReplaced(utf16Range: 0..<0, with: "Hello")
        // ... and where the selection went (textViewDidChangeSelection):
        try session.userSelected(utf16Range: 5..<5)
        // A copy arrives from sync: apply the patch to the view, then select the range it gives.
        let update = try session.receive(fromLaptop)
        for replacement in update.patch.replacements {
            text.replaceSubrange(replacement.utf16Range, with: Array(replacement.text.utf16))
        }
        selected = update.selectedUTF16Range
        // Both typed at the start at once: the order is the CRDT's (the same on every device).
        #expect(String(decoding: text, as: UTF16.self) == session.note.string)
        #expect(session.note.string == "Hello👋 ")
        #expect(selected == 5..<5)
    }

    /// "Formatting: a toolbar and typing attributes".
    @Test func formatting() throws {
        var session = NoteEditorSession(note: try NoteText("Buy milk", replica: phoneID), undoLimit: 100)
        var attributes = [TextAttributes](repeating: TextAttributes(), count: 8)   // the view's, per UTF-16 unit
        try session.userSelected(utf16Range: 4..<8)
        let update = try session.toggleMark(.bold)                                  // the Bold button
        for change in update.patch.attributeChanges {
            attributes.replaceSubrange(change.utf16Range, with: repeatElement(change.attributes, count: change.utf16Range.count))
        }
        try session.userSelected(utf16Range: 8..<8)
        let typing = try session.typingAttributes()                                 // after bold text: bold
        _ = try session.setParagraphAttribute(.list(.check))                        // a checklist item
        #expect(attributes.map { $0.mark(.bold) != nil } == [false, false, false, false, true, true, true, true])
        #expect(typing.marks == [.bold])
        #expect(try session.note.formattedSpans().allSatisfy { $0.paragraph.list == .check })
        #expect(session.canUndo)
    }

    /// "Which way anchors lean".
    @Test func anchors() throws {
        var note = try NoteText("milk", replica: phoneID)
        let caret = try note.anchor(atUTF16: 4, bias: .before)       // after "k"
        let bytes = caret.encoded                                     // a few bytes, for state restoration
        var laptop = note.forked(as: laptopID)
        try laptop.insert("Buy ", atScalarOffset: 0)
        try laptop.insert(" and eggs", atScalarOffset: 8)
        try note.merge(laptop)
        print(note.utf16Offset(of: try TextAnchor(encoded: bytes)) ?? -1)   // 8: still after "k"
        #expect(note.utf16Offset(of: caret) == 8)
        #expect(bytes.count <= 4)
    }

    /// "Undo and redo".
    @Test func undo() throws {
        var editor = NoteEditorSession(note: try NoteText("Plan", replica: phoneID))
        try editor.userReplaced(utf16Range: 4..<4, with: "s")
        editor.endUndoGroup()
        try editor.userReplaced(utf16Range: 0..<0, with: "My ")
        if let update = try editor.undo() {                           // removes "My "
            print(update.patch.replacements, update.selectedUTF16Range)
        }
        #expect(editor.note.string == "Plans")
    }

    /// Every compiled block of the guide stands in this file, line for line (indentation aside),
    /// and the guide is linked from the README and the getting-started guide.
    @Test func everyBlockOfTheGuideIsHere() throws {
        let (missing, checked) = try GuideCodeBlocks.missing(fromGuide: "TEXT-VIEWS.md", in: #filePath)
        for block in missing { Issue.record("TEXT-VIEWS.md block not compiled by this file:\n\(block.joined(separator: "\n"))") }
        #expect(checked == 4)
        let guide = try String(contentsOfFile: RepositoryPaths.docs + "/TEXT-VIEWS.md", encoding: .utf8)
        #expect(guide.components(separatedBy: "<!-- not compiled:").count - 1 == 4)
        // "Apple's attributes": its SwiftUI view is compiled by .ci/typecheck-cloudkit instead.
        #expect(guide.components(separatedBy: "<!-- compiled: Docs/CloudKitSample/").count - 1 == 1)
        let readme = try String(contentsOfFile: RepositoryPaths.root + "/README.md", encoding: .utf8)
        let gettingStarted = try String(contentsOfFile: RepositoryPaths.docs + "/GETTING-STARTED.md", encoding: .utf8)
        #expect(readme.contains("Docs/TEXT-VIEWS.md"))
        #expect(gettingStarted.contains("TEXT-VIEWS.md"))
    }
}
