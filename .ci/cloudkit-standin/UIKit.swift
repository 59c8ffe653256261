// A stand-in for Apple's UIKit module: only what crdtnote's `#if canImport(UIKit)` code uses,
// for .ci/typecheck-cloudkit. Never linked, never run: every body is `fatalError()`. Not part
// of the package. Written by hand after the iOS SDK (UIFont.h, UIFontDescriptor.h, UIColor.h,
// NSAttributedString.h with UIKit.apinotes, and Foundation's AttributeScopes.UIKitAttributes in
// the UIKit overlay); labels, optionality and conformances follow it. UIFont and UIColor are
// NS_SWIFT_SENDABLE there, hence `@unchecked Sendable`. UIKit re-exports Foundation, and with
// it Foundation's presentation intents (here from the FoundationPresentationIntents stand-in).
@_exported import Foundation
@_exported import FoundationPresentationIntents

/// `UIFont`.
open class UIFont: NSObject, @unchecked Sendable {
    /// `UIFontTextStyle` (apinotes: `UIFont.TextStyle`).
    public struct TextStyle: Hashable, RawRepresentable, @unchecked Sendable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
        public static let largeTitle: UIFont.TextStyle = { fatalError() }()
        public static let title1: UIFont.TextStyle = { fatalError() }()
        public static let title2: UIFont.TextStyle = { fatalError() }()
        public static let title3: UIFont.TextStyle = { fatalError() }()
        public static let headline: UIFont.TextStyle = { fatalError() }()
        public static let subheadline: UIFont.TextStyle = { fatalError() }()
        public static let body: UIFont.TextStyle = { fatalError() }()
        public static let callout: UIFont.TextStyle = { fatalError() }()
        public static let footnote: UIFont.TextStyle = { fatalError() }()
        public static let caption1: UIFont.TextStyle = { fatalError() }()
        public static let caption2: UIFont.TextStyle = { fatalError() }()
    }
    /// `+preferredFontForTextStyle:`.
    open class func preferredFont(forTextStyle style: UIFont.TextStyle) -> UIFont { fatalError() }
}

/// `UIColor`.
open class UIColor: NSObject, @unchecked Sendable {
    /// `-initWithRed:green:blue:alpha:`.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) { fatalError() }
}

/// `NSUnderlineStyle` (NSAttributedString.h, UIKit's copy).
public struct NSUnderlineStyle: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { fatalError() }
    public static var single: NSUnderlineStyle { fatalError() }
    public static var thick: NSUnderlineStyle { fatalError() }
    public static var double: NSUnderlineStyle { fatalError() }
}

@available(iOS 15.0, tvOS 15.0, watchOS 8.0, *)
extension AttributeScopes {
    /// `AttributeScopes.UIKitAttributes` (the keys crdtnote sets).
    public struct UIKitAttributes: AttributeScope {
        public let font: AttributeScopes.UIKitAttributes.FontAttribute
        public let underlineStyle: AttributeScopes.UIKitAttributes.UnderlineStyleAttribute
        public let backgroundColor: AttributeScopes.UIKitAttributes.BackgroundColorAttribute
        public let foundation: AttributeScopes.FoundationAttributes

        public enum FontAttribute: AttributedStringKey {
            public typealias Value = UIFont
            public static let name: String = "NSFont"
        }
        public enum UnderlineStyleAttribute: AttributedStringKey {
            public typealias Value = NSUnderlineStyle
            public static let name: String = "NSUnderline"
        }
        public enum BackgroundColorAttribute: AttributedStringKey {
            public typealias Value = UIColor
            public static let name: String = "NSBackgroundColor"
        }
    }
    public var uiKit: AttributeScopes.UIKitAttributes.Type { fatalError() }
}
