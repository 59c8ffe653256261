// A SwiftUI view of a note in Apple's attributes (Docs/TEXT-VIEWS.md, "Apple's attributes").
// Compiled against the stand-ins by .ci/typecheck-cloudkit.
import CRDTNote
import SwiftUI

/// A read-only view of a note: headings in heading fonts, bold, italic, code, strikethrough,
/// underline, highlights and links as SwiftUI's `Text` draws them.
struct NotePreview: View {
    let note: NoteText

    var body: some View {
        Text(Self.presented(note))
    }

    /// The note in Apple's attributes; its plain text when a loaded snapshot is corrupt (the
    /// error is the note library's to report, not the preview's).
    static func presented(_ note: NoteText) -> AttributedString {
        do {
            return try AttributedString(presenting: note)
        } catch {
            return AttributedString(note.string)
        }
    }
}

/// Text an editor hands back in Apple's attributes (a `TextEditor`'s, or a `UITextView`'s
/// converted with a scope that includes `\.crdtnote`) goes into the note: only what changed
/// is recorded.
func commitEditedText(_ edited: AttributedString, to note: inout NoteText) throws {
    try note.setPresentedText(edited)
}
