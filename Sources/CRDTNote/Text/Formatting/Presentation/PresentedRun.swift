import Foundation

/// One run of a note in Apple's attribute vocabulary (Foundation's presentation intents and
/// `link`; UIKit, AppKit and SwiftUI underline, background colour and heading font), with the
/// few crdtnote attributes Apple has no word for kept beside them. Portable: the Apple-only
/// layer (`AttributedString+Presentation.swift`) only copies these fields into and out of real
/// attributes, so the mapping and its round trip are tested on Linux. Docs/TEXT-VIEWS.md,
/// "Apple's attributes".
package struct PresentedRun: Hashable, Sendable {
    /// The run's characters.
    package var text: String
    /// Foundation's `inlinePresentationIntent` (empty: absent).
    package var inline: InlineIntent = []
    /// Foundation's `presentationIntent`, innermost block first as Apple orders its
    /// `components` (empty: absent).
    package var blocks: [PresentedBlock] = []
    /// Foundation's `link`.
    package var link: URL?
    /// A single underline (UIKit, AppKit and SwiftUI `underlineStyle`).
    package var underline = false
    /// The background colour shown for a highlight (UIKit, AppKit and SwiftUI
    /// `backgroundColor`).
    package var background: HighlightColor?
    /// The font a heading is shown in (UIKit and AppKit text styles, SwiftUI `Font`); written
    /// for display, never read back (the heading level is the intent's).
    package var headingStyle: HeadingTextStyle?
    /// Kept in crdtnote's scope beside Apple's attributes, which lack them: a checklist item
    /// (`crdtnote.list == .check`; the intent says an unordered list).
    package var checklist = false
    /// `crdtnote.checked`.
    package var checked = false
    /// `crdtnote.highlight`: the colour's name as the note stores it.
    package var highlight: String?
    /// `crdtnote.link`: the URL exactly as the note stores it (Foundation's `URL` may
    /// normalise it or not parse it).
    package var linkString: String?

    package init(text: String) { self.text = text }
}

/// A model of Foundation's `InlinePresentationIntent` (an option set, Apple platforms only): the
/// options crdtnote maps.
package struct InlineIntent: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `.emphasized`: italic.
    package static let emphasized = InlineIntent(rawValue: 1 << 0)
    /// `.stronglyEmphasized`: bold.
    package static let stronglyEmphasized = InlineIntent(rawValue: 1 << 1)
    /// `.code`: inline code.
    package static let code = InlineIntent(rawValue: 1 << 2)
    /// `.strikethrough`.
    package static let strikethrough = InlineIntent(rawValue: 1 << 3)
}

/// A model of one of `PresentationIntent.components` (`PresentationIntent.IntentType`): a block's
/// kind and its identity, shared by every run of that block.
package struct PresentedBlock: Hashable, Sendable {
    /// The kinds crdtnote maps (`PresentationIntent.Kind`); everything else (thematic breaks,
    /// tables) is ``other``, read as a plain paragraph.
    package enum Kind: Hashable, Sendable {
        case paragraph, header(level: Int), orderedList, unorderedList, listItem(ordinal: Int)
        /// A code block (Apple's language hint is not kept).
        case codeBlock
        case blockQuote, other
    }
    package var kind: Kind
    package var identity: Int

    package init(_ kind: Kind, identity: Int) {
        self.kind = kind
        self.identity = identity
    }
}

/// The text style a heading level is shown in: UIKit's and AppKit's `TextStyle` of that name,
/// SwiftUI's `Font` (`.title` for ``title1``). The raw value indexes the Apple-only layer's
/// tables of styles, which list them in this order.
package enum HeadingTextStyle: Int, Hashable, Sendable, CaseIterable {
    case title1, title2, title3, headline, subheadline, callout

    /// The style of heading `level` (1–6); nil for body text.
    package init?(level: Int) {
        switch level {
        case 1: self = .title1
        case 2: self = .title2
        case 3: self = .title3
        case 4: self = .headline
        case 5: self = .subheadline
        case 6: self = .callout
        default: return nil
        }
    }
}
