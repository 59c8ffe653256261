// A stand-in for Apple's SwiftUI module: only what crdtnote's `#if canImport(SwiftUI)` code and
// the samples in Docs/CloudKitSample use, for .ci/typecheck-cloudkit. Never linked, never run:
// every body is `fatalError()`. Not part of the package. Written by hand after the iOS SDK's
// SwiftUI and SwiftUICore .swiftinterface (Font, Color, Text.LineStyle, View, Text and
// AttributeScopes.SwiftUIAttributes); labels, optionality and conformances follow it. SwiftUI
// re-exports Foundation; Foundation's presentation intents come with it (here from the
// FoundationPresentationIntents stand-in).
@_exported import Foundation
@_exported import FoundationPresentationIntents

/// SwiftUI's `Font` (the text styles crdtnote's headings use).
public struct Font: Hashable, Sendable {
    public static var largeTitle: Font { fatalError() }
    public static var title: Font { fatalError() }
    @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
    public static var title2: Font { fatalError() }
    @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
    public static var title3: Font { fatalError() }
    public static var headline: Font { fatalError() }
    public static var subheadline: Font { fatalError() }
    public static var body: Font { fatalError() }
    public static var callout: Font { fatalError() }
    public static var footnote: Font { fatalError() }
    public static var caption: Font { fatalError() }
}

/// SwiftUI's `Color`.
public struct Color: Hashable, Sendable {
    /// `Color.RGBColorSpace`.
    public enum RGBColorSpace: Hashable, Sendable {
        case sRGB
        case sRGBLinear
        case displayP3
    }
    public init(_ colorSpace: Color.RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1) { fatalError() }
    public static var yellow: Color { fatalError() }
}

/// SwiftUI's `View` (what the samples need of it).
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// `@ViewBuilder` for single-view bodies.
@resultBuilder public struct ViewBuilder {
    public static func buildBlock<Content: View>(_ content: Content) -> Content { fatalError() }
}

/// SwiftUI's `Text`.
public struct Text: Equatable, Sendable {
    public init(_ attributedContent: AttributedString) { fatalError() }
    public static func == (lhs: Text, rhs: Text) -> Bool { fatalError() }

    /// `Text.LineStyle`: how an underline or strikethrough is drawn.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    public struct LineStyle: Hashable, Sendable {
        public static let single: Text.LineStyle = { fatalError() }()
    }
}

extension Text: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
extension AttributeScopes {
    /// `AttributeScopes.SwiftUIAttributes` (the keys crdtnote sets).
    public struct SwiftUIAttributes: AttributeScope {
        public let font: AttributeScopes.SwiftUIAttributes.FontAttribute
        public let underlineStyle: AttributeScopes.SwiftUIAttributes.UnderlineStyleAttribute
        public let backgroundColor: AttributeScopes.SwiftUIAttributes.BackgroundColorAttribute
        public let foundation: AttributeScopes.FoundationAttributes

        public enum FontAttribute: AttributedStringKey {
            public typealias Value = Font
            public static let name: String = "SwiftUI.Font"
        }
        public enum UnderlineStyleAttribute: AttributedStringKey {
            public typealias Value = Text.LineStyle
            public static let name: String = "SwiftUI.UnderlineStyle"
        }
        public enum BackgroundColorAttribute: AttributedStringKey {
            public typealias Value = Color
            public static let name: String = "SwiftUI.BackgroundColor"
        }
    }
    public var swiftUI: AttributeScopes.SwiftUIAttributes.Type { fatalError() }
}
