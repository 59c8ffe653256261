// Apple-only (UIKit: iOS, iPadOS, Mac Catalyst, tvOS, visionOS, watchOS): UIKit's heading
// fonts, underline and background colour for AttributedString(presenting:). Type-checked on
// Linux against stand-ins by .ci/typecheck-cloudkit.
#if canImport(UIKit)
import UIKit

extension PresentedRun {
    typealias UIKitKeys = AttributeScopes.UIKitAttributes

    /// UIKit's keys: the heading's preferred font, a single underline, the highlight's colour.
    func addUIKitAttributes(to container: inout AttributeContainer) {
        addStyle(to: &container, keys: (UIKitKeys.FontAttribute.self, UIKitKeys.UnderlineStyleAttribute.self, UIKitKeys.BackgroundColorAttribute.self),
                 font: { UIFont.preferredFont(forTextStyle: Self.uiKitTextStyles[$0.rawValue]) }, underline: .single,
                 background: { UIColor(red: CGFloat($0.red), green: CGFloat($0.green), blue: CGFloat($0.blue), alpha: 1) })
    }

    /// Whether UIKit's keys underline the run and fill its background.
    static func uiKitStyleShown(_ attributes: AttributeContainer) -> (underline: Bool, background: Bool) {
        styleShown(attributes, keys: (UIKitKeys.UnderlineStyleAttribute.self, UIKitKeys.BackgroundColorAttribute.self), noUnderline: [])
    }

    /// UIKit's text styles, in ``HeadingTextStyle`` order.
    static var uiKitTextStyles: [UIFont.TextStyle] { [.title1, .title2, .title3, .headline, .subheadline, .callout] }
}
#endif
