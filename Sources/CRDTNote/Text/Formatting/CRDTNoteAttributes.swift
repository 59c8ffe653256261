import Foundation

extension AttributeScopes {
    /// crdtnote's own attributes for Foundation's `AttributedString`, available on every
    /// platform: one per inline mark kind and per paragraph attribute (Docs/FORMAT.md §10), with
    /// Foundation's own attributes alongside. `AttributedString(note)` and
    /// ``NoteText/setAttributedText(_:)`` convert through them without loss.
    public struct CRDTNoteAttributes: AttributeScope {
        /// Bold text.
        public let bold: BoldAttribute
        /// Italic text.
        public let italic: ItalicAttribute
        /// Underlined text.
        public let underline: UnderlineAttribute
        /// Struck-through text.
        public let strikethrough: StrikethroughAttribute
        /// Inline code.
        public let code: CodeAttribute
        /// A highlight colour (a colour name or `#rrggbb`).
        public let highlight: HighlightAttribute
        /// A link's URL exactly as the note stores it (Foundation's `link` is set too when the
        /// string parses as a `URL`).
        public let linkURLString: LinkURLStringAttribute
        /// The paragraph's heading level (1–6; absent for body text).
        public let heading: HeadingAttribute
        /// The paragraph's list kind (absent when not a list item).
        public let list: ListAttribute
        /// Whether the paragraph, a checklist item, is checked (absent when not).
        public let checked: CheckedAttribute
        /// A block quote paragraph.
        public let quote: QuoteAttribute
        /// A code block paragraph.
        public let codeBlock: CodeBlockAttribute
        /// Foundation's attributes (`link` among them).
        public let foundation: FoundationAttributes

        /// Bold text (`true`).
        public enum BoldAttribute: AttributedStringKey {
            /// The attribute's value type.
            public typealias Value = Bool
            /// The key's name in an `AttributedString`.
            public static let name = "crdtnote.bold"
        }
        /// Italic text (`true`).
        public enum ItalicAttribute: AttributedStringKey {
            /// The attribute's value type.
            public typealias Value = Bool
            /// The key's name in an `AttributedString`.
            public static let name = "crdtnote.italic"
        }
        /// Underlined text (`true`).
        public enum UnderlineAttribute: AttributedStringKey {
            /// The attribute's value type.
            public typealias Value = Bool
            /// The key's name in an `AttributedString`.
            public static let name = "crdtnote.underline"
        }
        /// Struck-through text (`true`).
        public enum StrikethroughAttribute: AttributedStringKey {
            /// The attribute's value type.
            public typealias Value = Bool
            /// The key's name in an `AttributedString`.
            public static let name = "crdtnote.strikethrough"
        }
        /// Inline code (`true`).
        public enum CodeAttribute: AttributedStringKey {
            /// The attribute's value type.
            public typealias Value = Bool
            /// The key's name in an `AttributedString`.
            public static let name = "crdtnote.code"
        }
        /// A highlight colour.
        public enum HighlightAttribute: AttributedStringKey {
            /// The attribute's value type.
            public typealias Value = String
            /// The key's name in an `AttributedString`.
            public static let name = "crdtnote.highlight"
        }
        /// A link's URL string.
        public enum LinkURLStringAttribute: AttributedStringKey {
            /// The attribute's value type.
            public typealias Value = String
            /// The key's name in an `AttributedString`.
            public static let name = "crdtnote.link"
        }
        /// A heading level 1–6.
        public enum HeadingAttribute: AttributedStringKey {
            /// The attribute's value type.
            public typealias Value = Int
            /// The key's name in an `AttributedString`.
            public static let name = "crdtnote.heading"
        }
        /// A list kind.
        public enum ListAttribute: AttributedStringKey {
            /// The attribute's value type.
            public typealias Value = ParagraphList
            /// The key's name in an `AttributedString`.
            public static let name = "crdtnote.list"
        }
        /// A checked checklist item (`true`).
        public enum CheckedAttribute: AttributedStringKey {
            /// The attribute's value type.
            public typealias Value = Bool
            /// The key's name in an `AttributedString`.
            public static let name = "crdtnote.checked"
        }
        /// A block quote (`true`).
        public enum QuoteAttribute: AttributedStringKey {
            /// The attribute's value type.
            public typealias Value = Bool
            /// The key's name in an `AttributedString`.
            public static let name = "crdtnote.quote"
        }
        /// A code block (`true`).
        public enum CodeBlockAttribute: AttributedStringKey {
            /// The attribute's value type.
            public typealias Value = Bool
            /// The key's name in an `AttributedString`.
            public static let name = "crdtnote.codeblock"
        }
    }

    /// crdtnote's attributes: `text.crdtnote.bold`, `run.crdtnote.heading`.
    public var crdtnote: CRDTNoteAttributes.Type { CRDTNoteAttributes.self }
}

extension AttributeDynamicLookup {
    /// Lets `AttributedString` name crdtnote's attributes as properties (`text.bold = true`).
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<AttributeScopes.CRDTNoteAttributes, T>) -> T {
        self[T.self]
    }
}
