// Apple-only (UIKit: iOS, iPadOS, Mac Catalyst, tvOS, visionOS, watchOS): UIKit's fonts,
// underline and background colour for AttributedString(presenting:). Type-checked on Linux
// against stand-ins by .ci/typecheck-cloudkit.
#if canImport(UIKit)
import UIKit

extension PresentedRun {
    typealias UIKitKeys = AttributeScopes.UIKitAttributes

    /// The heading's preferred font, a single underline, the highlight's background colour.
    func addUIKitAttributes(to container: inout AttributeContainer) {
        if let headingStyle { container[UIKitKeys.FontAttribute.self] = UIFont.preferredFont(forTextStyle: headingStyle.uiKit) }
        if underline { container[UIKitKeys.UnderlineStyleAttribute.self] = .single }
        if let background {
            container[UIKitKeys.BackgroundColorAttribute.self] = UIColor(red: CGFloat(background.red), green: CGFloat(background.green),
                                                                          blue: CGFloat(background.blue), alpha: 1)
        }
    }

    /// Whether UIKit's attributes underline the run.
    static func uiKitUnderline(_ attributes: AttributeContainer) -> Bool {
        attributes[UIKitKeys.UnderlineStyleAttribute.self].map { !$0.isEmpty } ?? false
    }

    /// Whether UIKit's attributes fill the run's background.
    static func uiKitBackground(_ attributes: AttributeContainer) -> Bool {
        attributes[UIKitKeys.BackgroundColorAttribute.self] != nil
    }
}

extension HeadingTextStyle {
    /// UIKit's text style of this name.
    var uiKit: UIFont.TextStyle {
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
