/// How a note's listed title is made from its text when the app has set none.
enum NoteTitle {
    /// Most characters (grapheme clusters) a derived title keeps.
    static let maximumLength = 100
    /// Most UTF-8 bytes of the note's start read to find the title: a note that starts with
    /// more blank lines than this has an empty derived title.
    static let scanBytes = 4096

    /// The first line of `prefix` that is not blank, trimmed of white space, cut to
    /// `maximumLength` characters; "" when there is none.
    static func derive(fromPrefix prefix: [UInt8]) -> String {
        let text = String(decoding: prefix, as: UTF8.self)
        // Line by line, stopping at the first that is not blank (the rest is never scanned).
        var rest = Substring(text)
        while !rest.isEmpty {
            let end = rest.firstIndex(where: \.isNewline) ?? rest.endIndex
            let line = rest[..<end].drop(while: \.isWhitespace)
            if let last = line.lastIndex(where: { !$0.isWhitespace }) {
                return String(line[...last].prefix(maximumLength))
            }
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
        }
        return ""
    }
}
