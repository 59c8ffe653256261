/// What reverses (or redoes) one formatting command: values to set again on stretches named by
/// their first and last characters' ids, and paragraph attributes to set again on paragraph
/// keys, so it still applies after other devices' edits moved the text. Performing it makes new
/// operations (latest wins), and records the values it overwrote: the step that reverses it.
struct FormattingUndoStep: Sendable {
    /// One stretch to give back a mark kind's value (nil: no mark of the kind).
    struct MarkStretch: Sendable {
        var kind: TextMarkKind
        var value: String?
        /// The stretch's first and last characters (the characters between them now, where
        /// still visible, are the stretch).
        var first: ElementID
        var last: ElementID
    }

    /// Text that a step's text part deletes or brings back, with the attributes it showed: the
    /// characters between `first` and `last` (or the characters they were brought back as, since
    /// undo and redo restore text as new characters) get those marks again, by operations made
    /// only for the kinds whose value differs there.
    struct Snapshot: Sendable {
        var first: ElementID
        var last: ElementID
        var attributes: TextAttributes
    }

    var marks: [MarkStretch] = []
    /// Paragraph attributes to set back, per paragraph key.
    var paragraphs: [(key: ParagraphKey, attribute: ParagraphAttribute)] = []
    /// Deleted text's attributes, set again where it was brought back (after ``marks``).
    var snapshots: [Snapshot] = []
    /// Deleted newlines' paragraph attributes, set again on the newlines they were brought back
    /// as (the attributes that differ only).
    var paragraphSnapshots: [(key: ParagraphKey, attributes: ParagraphAttributes)] = []

    var isEmpty: Bool { marks.isEmpty && paragraphs.isEmpty && snapshots.isEmpty && paragraphSnapshots.isEmpty }

    /// Most operations performing the step can make (what the formatting operation limit is
    /// checked against before anything changes).
    var maximumOperations: Int {
        marks.count + paragraphs.count + snapshots.count * TextMarkKind.allCases.count + paragraphSnapshots.count * ParagraphAttributes.names.count
    }

    /// The step that gives the visible scalars `range` back their current values of `kind`:
    /// one stretch per run of equal values. `attributes` and `visible` are the note's (per
    /// visible scalar: attributes and element ids).
    static func restoring(_ kind: TextMarkKind, scalars range: Range<Int>, attributes: [TextAttributes],
                          visible: [ElementID]) -> [MarkStretch] {
        var stretches: [MarkStretch] = []
        for i in range {
            let value = attributes[i].mark(kind)?.value
            if let last = stretches.last, last.value == value, last.last == visible[i - 1] {
                stretches[stretches.count - 1].last = visible[i]
            } else {
                stretches.append(MarkStretch(kind: kind, value: value, first: visible[i], last: visible[i]))
            }
        }
        return stretches
    }

    /// The settings that give `keys` back their current value of the attribute named like
    /// `attribute` (attributes of newer releases are not restored: this release cannot read them).
    static func restoring(_ attribute: ParagraphAttribute, keys: [ParagraphKey],
                          current: [ParagraphKey: ParagraphAttributes]) -> [(key: ParagraphKey, attribute: ParagraphAttribute)] {
        keys.compactMap { key in
            (current[key] ?? ParagraphAttributes()).attribute(named: attribute.name).map { (key: key, attribute: $0) }
        }
    }
}

extension ParagraphAttributes {
    /// The names of the attributes this release knows.
    static let names = ["heading", "list", "checked", "quote", "codeblock"]

    /// The value of the attribute `name` as a setting (nil for a name this release does not know).
    func attribute(named name: String) -> ParagraphAttribute? {
        switch name {
        case "heading": return .heading(heading)
        case "list": return .list(list)
        case "checked": return .checked(checked)
        case "quote": return .quote(quote)
        case "codeblock": return .codeBlock(codeBlock)
        default: return nil
        }
    }
}
