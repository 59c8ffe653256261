/// The sRGB colour a highlight is shown in: a `#rrggbb` value as written, a known name
/// (`yellow`, `green`, `blue`, `pink`, `red`, `orange`, `purple`, `gray`) as a light marker tone,
/// anything else as yellow. Only for display: the note keeps the highlight's own string.
package struct HighlightColor: Hashable, Sendable {
    /// Components 0...1.
    package var red: Double, green: Double, blue: Double

    package init(red: Double, green: Double, blue: Double) {
        (self.red, self.green, self.blue) = (red, green, blue)
    }

    /// The colour shown for a highlight written `value`.
    package init(_ value: String) {
        let digits = value.dropFirst()
        if value.first == "#", digits.count == 6, digits.allSatisfy(\.isHexDigit), let rgb = UInt32(digits, radix: 16) {
            self.init(red: Double(rgb >> 16 & 0xFF) / 255, green: Double(rgb >> 8 & 0xFF) / 255, blue: Double(rgb & 0xFF) / 255)
            return
        }
        let tones: [String: UInt32] = [
            "yellow": 0xFFF59D, "green": 0xC5E1A5, "blue": 0xB3E5FC, "pink": 0xF8BBD0,
            "red": 0xFFCDD2, "orange": 0xFFE0B2, "purple": 0xE1BEE7, "gray": 0xE0E0E0,
        ]
        self.init("#" + String(tones[value.lowercased()] ?? 0xFFF59D, radix: 16))
    }
}
