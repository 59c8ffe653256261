/// The simulation's record of what the users meant, kept apart from every engine's state.
///
/// Every inserted stretch of text is one token, `{marker word}`, whose marker (`d<device>e<n>`)
/// is unique in the run; deletions remove whole tokens and are recorded by their markers. An
/// edit counts once a persisted state of its device contains it. At the end, every counted
/// insertion that nobody deleted (counted or not: a deletion that reached the server before its
/// device died still deleted) must be on every device exactly once, and every counted deletion
/// must be applied everywhere.
struct EditOracle {
    /// One edit as the user made it.
    enum Intent {
        case insert(note: String, marker: String)
        /// Deleted tokens, and the marker of the token put in their place (a replacement).
        case delete(note: String, markers: [String], replacement: String?)
    }

    /// A token found in a text: its marker and scalar range.
    struct Token {
        var marker: String
        var start: Int
        var end: Int
    }

    /// Counted insertions: marker → note.
    private(set) var inserted: [String: String] = [:]
    /// Counted deletions: marker → note.
    private(set) var deleted: [String: String] = [:]
    /// Every marker any deletion removed, counted or not.
    private(set) var deletedByAnyone: Set<String> = []
    /// Edits counted.
    private(set) var counted = 0

    /// A deletion is being made (whether or not it will count).
    mutating func deletionMade(_ markers: [String]) { deletedByAnyone.formUnion(markers) }

    /// Edits a persisted state now contains.
    mutating func count(_ intents: [Intent]) {
        for intent in intents {
            switch intent {
            case .insert(let note, let marker): inserted[marker] = note
            case .delete(let note, let markers, let replacement):
                for marker in markers { deleted[marker] = note }
                if let replacement { inserted[replacement] = note }
            }
        }
        counted += intents.count
    }

    /// The token text for an insertion.
    static func token(marker: String, word: String) -> String { "{" + marker + " " + word + "}" }

    /// The tokens of `text`, in order, with scalar offsets.
    static func tokens(in text: String) -> [Token] {
        var out: [Token] = []
        var offset = 0
        var start = -1
        var marker = ""
        var inMarker = false
        for scalar in text.unicodeScalars {
            if scalar == "{" {
                start = offset
                marker = ""
                inMarker = true
            } else if scalar == "}" && start >= 0 {
                out.append(Token(marker: marker, start: start, end: offset + 1))
                start = -1
                inMarker = false
            } else if inMarker {
                if scalar == " " { inMarker = false } else { marker.unicodeScalars.append(scalar) }
            }
            offset += 1
        }
        return out
    }

    /// Checks final texts (one `[note: text]` per device): insertions missing or duplicated
    /// somewhere, and deletions not applied somewhere, each counted once.
    func check(_ devices: [[String: String]]) -> (lost: Int, resurrected: Int, lostMarkers: [String], resurrectedMarkers: [String]) {
        var counts: [[String: Int]] = []
        for texts in devices {
            var seen: [String: Int] = [:]
            for (note, text) in texts {
                for token in Self.tokens(in: text) { seen[note + "/" + token.marker, default: 0] += 1 }
            }
            counts.append(seen)
        }
        var lost: [String] = []
        for (marker, note) in inserted where !deletedByAnyone.contains(marker) {
            if counts.contains(where: { $0[note + "/" + marker] != 1 }) { lost.append(marker) }
        }
        var resurrected: [String] = []
        for (marker, note) in deleted where counts.contains(where: { $0[note + "/" + marker] != nil }) {
            resurrected.append(marker)
        }
        return (lost.count, resurrected.count, lost.sorted(), resurrected.sorted())
    }
}
