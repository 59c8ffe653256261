// A stand-in for the part of Apple's Foundation that Linux Foundation lacks and crdtnote's
// Apple-only presentation code uses: InlinePresentationIntent, PresentationIntent and their
// keys in AttributeScopes.FoundationAttributes. Used only by .ci/typecheck-cloudkit; never
// linked, never run: every body is `fatalError()`. Not part of the package.
//
// On Apple platforms these are Foundation's (macOS 12, iOS 15, tvOS 15, watchOS 8), visible
// through `import SwiftUI`, `import UIKit` and `import AppKit`, which re-export Foundation. The
// stand-in SwiftUI, UIKit and AppKit modules re-export this module the same way, so the
// package's code is the same on both. Written by hand after the SDK's Foundation interface
// (Foundation.swiftmodule .swiftinterface and NSAttributedString.h, whose
// NS_OPTIONS(NSUInteger, NSInlinePresentationIntent) imports as the option set below);
// labels, optionality and conformances follow it. Compiled as Apple's modules are: Swift 5
// mode, library evolution (so PresentationIntent.Kind needs a `default:`).
import Foundation

/// `NSInlinePresentationIntent` (NSAttributedString.h): inline traits Markdown writes.
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
public struct InlinePresentationIntent: OptionSet, Hashable, Codable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { fatalError() }
    public static var emphasized: InlinePresentationIntent { fatalError() }
    public static var stronglyEmphasized: InlinePresentationIntent { fatalError() }
    public static var code: InlinePresentationIntent { fatalError() }
    public static var strikethrough: InlinePresentationIntent { fatalError() }
    public static var softBreak: InlinePresentationIntent { fatalError() }
    public static var lineBreak: InlinePresentationIntent { fatalError() }
    public static var inlineHTML: InlinePresentationIntent { fatalError() }
    public static var blockHTML: InlinePresentationIntent { fatalError() }
}

/// Foundation's `PresentationIntent`: the blocks a run belongs to, innermost first.
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
public struct PresentationIntent: Hashable, Codable, CustomDebugStringConvertible, Sendable {
    public enum Kind: Hashable, Codable, CustomDebugStringConvertible, Sendable {
        case paragraph
        case header(level: Int)
        case orderedList
        case unorderedList
        case listItem(ordinal: Int)
        case codeBlock(languageHint: String?)
        case blockQuote
        case thematicBreak
        case table(columns: [PresentationIntent.TableColumn])
        case tableHeaderRow
        case tableRow(rowIndex: Int)
        case tableCell(columnIndex: Int)
        public var debugDescription: String { fatalError() }
    }

    public struct TableColumn: Hashable, Codable, Sendable {
        public enum Alignment: Int, Hashable, Codable, Sendable {
            case left
            case center
            case right
        }
        public var alignment: PresentationIntent.TableColumn.Alignment
        public init(alignment: PresentationIntent.TableColumn.Alignment) { fatalError() }
    }

    /// One block: no public initialiser (blocks are made through PresentationIntent's).
    public struct IntentType: Hashable, Codable, CustomDebugStringConvertible, Sendable {
        public var kind: PresentationIntent.Kind
        public var identity: Int
        public var debugDescription: String { fatalError() }
    }

    public var components: [PresentationIntent.IntentType]
    public var count: Int { fatalError() }
    public var indentationLevel: Int { fatalError() }
    public var isValid: Bool { fatalError() }
    public var debugDescription: String { fatalError() }

    public init(types: [PresentationIntent.IntentType]) { fatalError() }
    public init(_ kind: PresentationIntent.Kind, identity: Int, parent: PresentationIntent? = nil) { fatalError() }
}

@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
extension AttributeScopes.FoundationAttributes {
    /// `inlinePresentationIntent`.
    public var inlinePresentationIntent: InlinePresentationIntentAttribute { fatalError() }
    /// `presentationIntent`.
    public var presentationIntent: PresentationIntentAttribute { fatalError() }

    /// Apple's key: named "NSInlinePresentationIntent".
    public enum InlinePresentationIntentAttribute: CodableAttributedStringKey {
        public typealias Value = InlinePresentationIntent
        public static var name: String { fatalError() }
    }

    /// Apple's key: named "NSPresentationIntent".
    public enum PresentationIntentAttribute: CodableAttributedStringKey {
        public typealias Value = PresentationIntent
        public static var name: String { fatalError() }
    }
}
