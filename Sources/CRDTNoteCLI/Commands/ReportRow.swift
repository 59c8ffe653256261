/// The aligned `label: value` lines of the text reports of `show`.
enum ReportRow {
    /// `label:` padded to the value column, then `value`.
    static func line(_ label: String, _ value: String) -> String {
        pad(label + ":", to: 18) + value
    }

    /// `text` padded with spaces to `width` characters (at least one space).
    static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
