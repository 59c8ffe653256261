// Apple-only (AppKit: macOS, not Mac Catalyst): AppKit's fonts,
// underline and background colour for AttributedString(presenting:). Type-checked on Linux
// against stand-ins by .ci/typecheck-cloudkit.
#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit

extension PresentedRun {
    typealias AppKitKeys = AttributeScopes.AppKitAttributes

    /// The heading's preferred font, a single underline, the highlight's background colour.
    func addAppKitAttributes(to container: inout AttributeContainer) {
        if let headingStyle { container[AppKitKeys.FontAttribute.self] = NSFont.preferredFont(forTextStyle: headingStyle.appKit) }
        if underline { container[AppKitKeys.UnderlineStyleAttribute.self] = .single }
        if let background {
            container[AppKitKeys.BackgroundColorAttribute.self] = NSColor(srgbRed: CGFloat(background.red), green: CGFloat(background.green),
                                                                          blue: CGFloat(background.blue), alpha: 1)
        }
    }

    /// Whether AppKit's attributes underline the run.
    static func appKitUnderline(_ attributes: AttributeContainer) -> Bool {
        attributes[AppKitKeys.UnderlineStyleAttribute.self].map { !$0.isEmpty } ?? false
    }

    /// Whether AppKit's attributes fill the run's background.
    static func appKitBackground(_ attributes: AttributeContainer) -> Bool {
        attributes[AppKitKeys.BackgroundColorAttribute.self] != nil
    }
}

extension HeadingTextStyle {
    /// AppKit's text style of this name.
    var appKit: NSFont.TextStyle {
        switch self {
        case .title1: return .title1
        case .title2: return .title2
        case .title3: return .title3
        case .headline: return .headline
        case .subheadline: return .subheadline
        case .callout: return .callout
        }
    }
}
#endif
