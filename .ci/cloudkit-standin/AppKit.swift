// A stand-in for Apple's AppKit module: only what crdtnote's
// `#if canImport(AppKit) && !targetEnvironment(macCatalyst)` code uses, for
// .ci/typecheck-cloudkit. Never linked, never run: every body is `fatalError()`. Not part of
// the package. Written by hand after the macOS SDK (NSFont.h, NSFontDescriptor.h, NSColor.h,
// NSAttributedString.h with AppKit.apinotes, and Foundation's AttributeScopes.AppKitAttributes
// in the AppKit overlay); labels, optionality and conformances follow it. NSFont and NSColor
// are NS_SWIFT_SENDABLE there, hence `@unchecked Sendable`. AppKit re-exports Foundation, and
// with it Foundation's presentation intents (here from the FoundationPresentationIntents
// stand-in).
@_exported import Foundation
@_exported import FoundationPresentationIntents

/// `NSFontDescriptor` (only its option keys).
open class NSFontDescriptor: NSObject, @unchecked Sendable {
    /// `NSFontDescriptorOptionKey`.
    public struct OptionKey: Hashable, RawRepresentable, @unchecked Sendable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
    }
}

/// `NSFont`.
open class NSFont: NSObject, @unchecked Sendable {
    /// `NSFontTextStyle` (apinotes: `NSFont.TextStyle`).
    @available(macOS 11.0, *)
    public struct TextStyle: Hashable, RawRepresentable, @unchecked Sendable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
        public static let largeTitle: NSFont.TextStyle = { fatalError() }()
        public static let title1: NSFont.TextStyle = { fatalError() }()
        public static let title2: NSFont.TextStyle = { fatalError() }()
        public static let title3: NSFont.TextStyle = { fatalError() }()
        public static let headline: NSFont.TextStyle = { fatalError() }()
        public static let subheadline: NSFont.TextStyle = { fatalError() }()
        public static let body: NSFont.TextStyle = { fatalError() }()
        public static let callout: NSFont.TextStyle = { fatalError() }()
        public static let footnote: NSFont.TextStyle = { fatalError() }()
        public static let caption1: NSFont.TextStyle = { fatalError() }()
        public static let caption2: NSFont.TextStyle = { fatalError() }()
    }
    /// `+preferredFontForTextStyle:options:`.
    @available(macOS 11.0, *)
    open class func preferredFont(forTextStyle style: NSFont.TextStyle, options: [NSFontDescriptor.OptionKey: Any] = [:]) -> NSFont { fatalError() }
}

/// `NSColor`.
open class NSColor: NSObject, @unchecked Sendable {
    /// `+colorWithSRGBRed:green:blue:alpha:` (imported as an initialiser).
    public init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) { fatalError() }
}

/// `NSUnderlineStyle` (NSAttributedString.h, AppKit's copy).
public struct NSUnderlineStyle: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { fatalError() }
    public static var single: NSUnderlineStyle { fatalError() }
    public static var thick: NSUnderlineStyle { fatalError() }
    public static var double: NSUnderlineStyle { fatalError() }
}

@available(macOS 12.0, *)
extension AttributeScopes {
    /// `AttributeScopes.AppKitAttributes` (the keys crdtnote sets).
    public struct AppKitAttributes: AttributeScope {
        public let font: AttributeScopes.AppKitAttributes.FontAttribute
        public let underlineStyle: AttributeScopes.AppKitAttributes.UnderlineStyleAttribute
        public let backgroundColor: AttributeScopes.AppKitAttributes.BackgroundColorAttribute
        public let foundation: AttributeScopes.FoundationAttributes

        public enum FontAttribute: AttributedStringKey {
            public typealias Value = NSFont
            public static let name: String = "NSFont"
        }
        public enum UnderlineStyleAttribute: AttributedStringKey {
            public typealias Value = NSUnderlineStyle
            public static let name: String = "NSUnderline"
        }
        public enum BackgroundColorAttribute: AttributedStringKey {
            public typealias Value = NSColor
            public static let name: String = "NSBackgroundColor"
        }
    }
    public var appKit: AttributeScopes.AppKitAttributes.Type { fatalError() }
}
