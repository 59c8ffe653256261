// Apple-only (AppKit: macOS, not Mac Catalyst): AppKit's heading fonts, underline and background
// colour for AttributedString(presenting:). Type-checked on Linux against stand-ins by
// .ci/typecheck-cloudkit.
#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit

extension PresentedRun {
    typealias AppKitKeys = AttributeScopes.AppKitAttributes

    /// AppKit's keys: the heading's preferred font, a single underline, the highlight's colour.
    func addAppKitAttributes(to container: inout AttributeContainer) {
        addStyle(to: &container, keys: (AppKitKeys.FontAttribute.self, AppKitKeys.UnderlineStyleAttribute.self, AppKitKeys.BackgroundColorAttribute.self),
                 font: { NSFont.preferredFont(forTextStyle: Self.appKitTextStyles[$0.rawValue]) }, underline: .single,
                 background: { NSColor(srgbRed: CGFloat($0.red), green: CGFloat($0.green), blue: CGFloat($0.blue), alpha: 1) })
    }

    /// Whether AppKit's keys underline the run and fill its background.
    static func appKitStyleShown(_ attributes: AttributeContainer) -> (underline: Bool, background: Bool) {
        styleShown(attributes, keys: (AppKitKeys.UnderlineStyleAttribute.self, AppKitKeys.BackgroundColorAttribute.self), noUnderline: [])
    }

    /// AppKit's text styles, in ``HeadingTextStyle`` order.
    static var appKitTextStyles: [NSFont.TextStyle] { [.title1, .title2, .title3, .headline, .subheadline, .callout] }
}
#endif
