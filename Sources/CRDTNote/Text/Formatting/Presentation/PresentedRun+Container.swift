import Foundation

extension PresentedRun {
    typealias Kept = AttributeScopes.CRDTNoteAttributes

    /// The run's attributes that Foundation has on every platform: `link`, and crdtnote's keys
    /// for what Apple's attributes lack. The Apple-only layer adds the intents and styles.
    var portableAttributes: AttributeContainer {
        var container = AttributeContainer()
        if let link { container.link = link }
        if checklist { container[Kept.ListAttribute.self] = .check }
        if checked { container[Kept.CheckedAttribute.self] = true }
        if let highlight { container[Kept.HighlightAttribute.self] = highlight }
        if let linkString { container[Kept.LinkURLStringAttribute.self] = linkString }
        return container
    }

    /// A run of `text` with `link` and crdtnote's kept keys read from `attributes` (the
    /// Apple-only layer reads the intents and styles, and sets ``background`` when a
    /// framework's background colour is present).
    init(text: String, portableAttributes attributes: AttributeContainer) {
        self.init(text: text)
        link = attributes.link
        checklist = attributes[Kept.ListAttribute.self] == .check
        checked = attributes[Kept.CheckedAttribute.self] ?? false
        highlight = attributes[Kept.HighlightAttribute.self]
        linkString = attributes[Kept.LinkURLStringAttribute.self]
    }
}
