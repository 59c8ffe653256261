// Apple-only: a note in Apple's attribute vocabulary, for SwiftUI's `Text`, `UITextView` and
// `NSTextView`. SwiftUI is on every Apple platform the package supports and re-exports
// Foundation, whose presentation intents Linux Foundation lacks; this file only copies the
// fields of `PresentedRun` (portable, tested on Linux) into and out of real attributes.
// Type-checked on Linux against stand-ins by .ci/typecheck-cloudkit (Docs/CloudKit.md §9).
#if canImport(SwiftUI)
import SwiftUI

extension AttributedString {
    /// The note in Apple's attribute vocabulary (Docs/TEXT-VIEWS.md, "Apple's attributes"):
    /// bold, italic, code and strikethrough as `inlinePresentationIntent`; headings, lists,
    /// quotes and code blocks as `presentationIntent` (consecutive paragraphs share their list,
    /// quote and code block); links as `link`; underline, highlight colour and heading fonts
    /// in the SwiftUI scope and in UIKit's or AppKit's. Checklists, checked items, highlight
    /// names and exact link strings, which Apple's attributes lack, ride in
    /// ``AttributeScopes/CRDTNoteAttributes`` beside them, so ``NoteText/setPresentedText(_:)``
    /// gives the note back. Throws ``NoteTextError/Code/corruptSnapshot`` when a loaded
    /// snapshot's runs are corrupt.
    public init(presenting note: NoteText) throws(NoteTextError) {
        self.init()
        for run in PresentedRun.runs(of: try note.formattedSpans()) {
            append(AttributedString(run.text, attributes: run.appleAttributes()))
        }
    }
}

extension NoteText {
    /// Makes the note's text and formatting equal `text`, read in Apple's vocabulary as
    /// `AttributedString(presenting:)` writes it (only what differs is recorded, as
    /// ``setFormattedText(_:)``). Text with Apple's attributes alone, such as
    /// `AttributedString(markdown:)` gives, reads as what they carry: a block that starts
    /// without a newline before it gets one, fonts are not read, and a highlight needs
    /// crdtnote's colour name. Throws as ``setFormattedText(_:)``, and
    /// ``NoteTextError/Code/outOfBounds`` for a header level outside 1...6.
    public mutating func setPresentedText(_ text: AttributedString) throws(NoteTextError) {
        let runs = text.runs.map { PresentedRun(text: String(text[$0.range].characters), appleAttributes: $0.attributes) }
        try setFormattedText(PresentedRun.spans(of: runs))
    }
}

extension PresentedRun {
    typealias SwiftUIKeys = AttributeScopes.SwiftUIAttributes

    /// Foundation's, SwiftUI's, UIKit's or AppKit's, and crdtnote's kept attributes.
    func appleAttributes() -> AttributeContainer {
        var container = portableAttributes
        var intent = InlinePresentationIntent()
        if inline.contains(.stronglyEmphasized) { intent.insert(.stronglyEmphasized) }
        if inline.contains(.emphasized) { intent.insert(.emphasized) }
        if inline.contains(.code) { intent.insert(.code) }
        if inline.contains(.strikethrough) { intent.insert(.strikethrough) }
        if !intent.isEmpty { container[AttributeScopes.FoundationAttributes.InlinePresentationIntentAttribute.self] = intent }
        var block: PresentationIntent?
        for component in blocks.reversed() {
            block = PresentationIntent(Self.appleKind(component.kind), identity: component.identity, parent: block)
        }
        if let block { container[AttributeScopes.FoundationAttributes.PresentationIntentAttribute.self] = block }
        addStyle(to: &container, keys: (SwiftUIKeys.FontAttribute.self, SwiftUIKeys.UnderlineStyleAttribute.self, SwiftUIKeys.BackgroundColorAttribute.self),
                 font: { Self.swiftUIFonts[$0.rawValue] }, underline: .single,
                 background: { Color(.sRGB, red: $0.red, green: $0.green, blue: $0.blue, opacity: 1) })
        #if canImport(UIKit)
        addUIKitAttributes(to: &container)
        #endif
        #if canImport(AppKit) && !targetEnvironment(macCatalyst)
        addAppKitAttributes(to: &container)
        #endif
        return container
    }

    /// The run `attributes` describe (underline and background colour from any of SwiftUI's,
    /// UIKit's and AppKit's keys).
    init(text: String, appleAttributes attributes: AttributeContainer) {
        self.init(text: text, portableAttributes: attributes)
        let intent = attributes[AttributeScopes.FoundationAttributes.InlinePresentationIntentAttribute.self] ?? []
        if intent.contains(.stronglyEmphasized) { inline.insert(.stronglyEmphasized) }
        if intent.contains(.emphasized) { inline.insert(.emphasized) }
        if intent.contains(.code) { inline.insert(.code) }
        if intent.contains(.strikethrough) { inline.insert(.strikethrough) }
        blocks = (attributes[AttributeScopes.FoundationAttributes.PresentationIntentAttribute.self]?.components ?? []).map {
            PresentedBlock(Self.presentedKind($0.kind), identity: $0.identity)
        }
        var shown = [Self.styleShown(attributes, keys: (SwiftUIKeys.UnderlineStyleAttribute.self, SwiftUIKeys.BackgroundColorAttribute.self), noUnderline: nil)]
        #if canImport(UIKit)
        shown.append(Self.uiKitStyleShown(attributes))
        #endif
        #if canImport(AppKit) && !targetEnvironment(macCatalyst)
        shown.append(Self.appKitStyleShown(attributes))
        #endif
        underline = shown.contains { $0.underline }
        if shown.contains(where: { $0.background }), let highlight { background = HighlightColor(highlight) }
    }

    /// Sets one framework's (SwiftUI's, UIKit's or AppKit's) heading font, underline and
    /// background colour keys, with that framework's values.
    func addStyle<F: AttributedStringKey, U: AttributedStringKey, B: AttributedStringKey>(
        to container: inout AttributeContainer, keys: (F.Type, U.Type, B.Type),
        font: (HeadingTextStyle) -> F.Value, underline single: U.Value, background color: (HighlightColor) -> B.Value
    ) where F.Value: Sendable, U.Value: Sendable, B.Value: Sendable {
        if let headingStyle { container[F.self] = font(headingStyle) }
        if underline { container[U.self] = single }
        if let background { container[B.self] = color(background) }
    }

    /// Whether one framework's keys underline the run (with a value other than `noUnderline`)
    /// and fill its background.
    static func styleShown<U: AttributedStringKey, B: AttributedStringKey>(
        _ attributes: AttributeContainer, keys: (U.Type, B.Type), noUnderline: U.Value?
    ) -> (underline: Bool, background: Bool) where U.Value: Sendable, B.Value: Sendable {
        (attributes[U.self].map { $0 != noUnderline } ?? false, attributes[B.self] != nil)
    }

    /// SwiftUI's fonts, in ``HeadingTextStyle`` order.
    static var swiftUIFonts: [Font] { [.title, .title2, .title3, .headline, .subheadline, .callout] }

    /// Apple's kind for a block kind this mapping writes.
    private static func appleKind(_ kind: PresentedBlock.Kind) -> PresentationIntent.Kind {
        switch kind {
        case .paragraph, .other: return .paragraph
        case .header(let level): return .header(level: level)
        case .orderedList: return .orderedList
        case .unorderedList: return .unorderedList
        case .listItem(let ordinal): return .listItem(ordinal: ordinal)
        case .codeBlock: return .codeBlock(languageHint: nil)
        case .blockQuote: return .blockQuote
        }
    }

    /// The block kind for Apple's (thematic breaks and tables are ``PresentedBlock/Kind/other``).
    private static func presentedKind(_ kind: PresentationIntent.Kind) -> PresentedBlock.Kind {
        switch kind {
        case .paragraph: return .paragraph
        case .header(let level): return .header(level: level)
        case .orderedList: return .orderedList
        case .unorderedList: return .unorderedList
        case .listItem(let ordinal): return .listItem(ordinal: ordinal)
        case .codeBlock: return .codeBlock
        case .blockQuote: return .blockQuote
        default: return .other
        }
    }
}

#endif
