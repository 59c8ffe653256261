import CRDTNote
import CRDTNoteTestSupport
import Foundation
import Testing

/// Docs/GETTING-STARTED.md's code, compiled and run: every ```swift block of the guide (except
/// those marked `<!-- not compiled: why -->`) must appear line for line in this file, where
/// it runs with the few names it needs (a text view's range, a device id) defined around it.
@Suite("GETTING-STARTED.md")
struct GettingStartedGuideTests {
    /// Section 3, editing by scalar offsets.
    @Test func editing() throws {
        let device = ReplicaID.random()                 // in an app: loadReplicaID(), above
        var note = NoteText(replica: device)
        try note.insert("Hello", atScalarOffset: 0)      // offsets count Unicode scalars
        try note.insert(", world", atScalarOffset: 5)
        try note.deleteScalars(in: 0..<1)
        try note.insert("h", atScalarOffset: 0)
        print(note.string)                               // "hello, world"
        #expect(note.string == "hello, world")
    }

    /// A text view's state, as the UTF-16 and whole-text snippets see it.
    struct TextView { var text: String }

    /// Section 3, UTF-16 edits and whole-text updates from a text view.
    @Test func textViewEdits() throws {
        var note = try NoteText("Hello world", replica: ReplicaID.random())
        let range = NSRange(location: 6, length: 5), text = "there"
        // In UITextViewDelegate.textView(_:shouldChangeTextIn:replacementText:)
        try note.replaceUTF16(in: range.location..<range.location + range.length, with: text)
        #expect(note.string == "Hello there")
        let textView = TextView(text: "Hello there, 👋")
        try note.setText(textView.text)
        #expect(note.string == "Hello there, 👋")
    }

    /// Section 4, merging two copies, and sending only the changes.
    @Test func merging() throws {
        let phoneID = ReplicaID.random(), laptopID = ReplicaID.random()
        var phone = try NoteText("Shopping", replica: phoneID)
        var laptop = phone.forked(as: laptopID)   // the same state, edited as another replica
        try phone.insert(" list", atScalarOffset: 8)
        try laptop.insert("My ", atScalarOffset: 0)
        try phone.merge(laptop)
        try laptop.merge(phone)
        // both are now "My Shopping list"
        #expect(phone.string == "My Shopping list")
        #expect(laptop.string == "My Shopping list")
        do {
            // The same two edits again, this time sent as changes instead of merging states.
            var phone = try NoteText("Shopping", replica: phoneID)
            var laptop = phone.forked(as: laptopID)
            try phone.insert(" list", atScalarOffset: 8)
            try laptop.insert("My ", atScalarOffset: 0)
            let changes = laptop.changes(since: phone.version)   // NoteChanges
            let bytes = changes.encoded()                       // binary, checksummed
            try phone.apply(NoteChanges(encoded: bytes))
            #expect(phone.string == "My Shopping list")
            try laptop.setMark(.bold, utf16Range: 0..<2)
            try phone.apply(laptop.changes(since: phone.version))   // "My" is bold on the phone too
            let first = try phone.formattedSpans().first
            #expect(first?.text == "My" && first?.marks == [.bold])
        }
    }

    /// Section 5, snapshots; section 6, an injected clock.
    @Test func snapshotsAndClocks() throws {
        let device = ReplicaID.random()
        let note = try NoteText("saved", replica: device)
        let payload: [UInt8] = note.encodedSnapshot()            // full state
        let loaded = try NoteText(snapshot: payload, replica: device)
        #expect(loaded.string == "saved")
        do {
            let clock = HybridLogicalClock(physicalClock: .fixed(1_700_000_000_000))
            var note = NoteText(replica: device, clock: clock)
            try note.insert("x", atScalarOffset: 0)
            #expect(note.lastModified?.milliseconds == 1_700_000_000_000)
        }
    }

    /// Every compiled block of the guide stands in this file, line for line (indentation aside).
    /// Section 6a, history and restore.
    @Test func historyAndRestore() throws {
        let phoneID = ReplicaID.random(), laptopID = ReplicaID.random()
        let monday = Date(timeIntervalSince1970: 1_795_597_200)              // 2026-11-25 09:00 UTC
        let phoneClock = HybridLogicalClock(physicalClock: .fixed(1_795_597_200_000))
        var letter = NoteText(replica: phoneID, clock: phoneClock)
        try letter.insert("Dear Anna, see you Monday.", atScalarOffset: 0)
        let laptopClock = HybridLogicalClock(physicalClock: .fixed(1_795_618_800_000))  // 15:00
        var edited = letter.forked(as: laptopID, clock: laptopClock)
        edited.historyRetention = .default                                    // log deletions
        try edited.replaceUTF16(in: 19..<25, with: "soon")
        print(try edited.text(at: monday.addingTimeInterval(3_600)))          // "Dear Anna, see you Monday."
        for version in try edited.versions() {                                // sessions, oldest first
            print(version.replica, version.start, version.inserted, version.deleted)
        }
        let spans = try edited.blame(utf16Range: 0..<edited.utf16Count)       // who typed what, when
        try edited.restore(to: monday.addingTimeInterval(3_600))             // back to 10:00, as new edits
        print(edited.string)                                                  // "Dear Anna, see you Monday."
        #expect(edited.string == "Dear Anna, see you Monday.")
        #expect(spans.map(\.replica) == [phoneID, laptopID, phoneID])
        #expect(try edited.versions().map(\.replica) == [phoneID, laptopID])
        #expect(try edited.text(at: monday.addingTimeInterval(3_600)) == "Dear Anna, see you Monday.")
    }

    @Test func everyBlockOfTheGuideIsHere() throws {
        let (missing, checked) = try GuideCodeBlocks.missing(fromGuide: "GETTING-STARTED.md", in: #filePath)
        for block in missing { Issue.record("GETTING-STARTED.md block not compiled by this file:\n\(block.joined(separator: "\n"))") }
        #expect(checked >= 7)
    }
}
