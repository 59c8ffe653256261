/// A JSON number kept as its exact source text, so reading and writing it loses nothing
/// (`1.0` stays `1.0`, `1e400` stays `1e400`, 20-digit integers keep every digit).
///
/// Equality compares the text: `1` and `1.0` are different values.
package struct JSONNumber: Hashable, Sendable {
    /// The number as written in JSON (RFC 8259 number grammar).
    package let text: String

    /// Wraps text that is already known to follow the JSON number grammar (the parser's job).
    init(validatedText: String) {
        self.text = validatedText
    }

    /// The number spelled `text`, or nil unless `text` is exactly one JSON number
    /// (e.g. a value printed with a fixed number of decimals).
    package init?(text: String) {
        let number = Array(text.utf8).withUnsafeBufferPointer { buffer -> JSONNumber? in
            var scanner = JSONScanner(bytes: buffer)
            return try? scanner.readNumber()
        }
        guard let number, number.text == text else { return nil }
        self = number
    }

    /// A number holding `v` exactly.
    package init(_ v: Int64) {
        self.text = String(v)
    }

    /// A number holding `v` exactly (also makes `JSONNumber(3)` unambiguous).
    package init(_ v: Int) {
        self.text = String(v)
    }

    /// A number holding `v` with Swift's shortest round-tripping spelling.
    /// JSON has no spelling for non-finite values: infinities are written as `±1e999`
    /// (which reads back as infinity) and NaN as `0`.
    package init(_ v: Double) {
        if v.isNaN {
            self.text = "0"
        } else if v.isInfinite {
            self.text = v < 0 ? "-1e999" : "1e999"
        } else {
            self.text = "\(v)"
        }
    }

    /// The value as an `Int64` when the text is an integer literal (no fraction or exponent)
    /// within range; `-0` gives 0. `9223372036854775808` or `1.0` give nil.
    package var int64Value: Int64? {
        var result: Int64 = 0
        var negative = false
        var sawDigit = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "-"), !sawDigit, !negative {
                negative = true
                continue
            }
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            sawDigit = true
            let digit = Int64(byte - 0x30)
            // Accumulate negatively so Int64.min fits.
            let (times10, o1) = result.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.subtractingReportingOverflow(digit)
            if o1 || o2 { return nil }
            result = next
        }
        guard sawDigit else { return nil }
        if negative { return result }
        let (positive, overflow) = Int64(0).subtractingReportingOverflow(result)
        return overflow ? nil : positive
    }

    /// The value as the nearest `Double` (IEEE rounding: `1e400` gives `+infinity`).
    package var doubleValue: Double? {
        Double(text)
    }
}
