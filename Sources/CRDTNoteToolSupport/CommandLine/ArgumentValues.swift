/// Parses a `UInt64` written in decimal or `0x` hexadecimal; no sign, spaces or separators.
func parseUnsigned64(_ text: String) -> UInt64? {
    if text.hasPrefix("0x") || text.hasPrefix("0X") {
        let digits = text.dropFirst(2)
        guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit) else { return nil }
        return UInt64(digits, radix: 16)
    }
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
        return nil
    }
    return UInt64(text)
}

extension ParsedArguments {
    /// The integer value of option `name`, required to lie in `range`.
    package func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try value(name) else { return nil }
        let isDecimal = text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard let number = isDecimal ? Int(text) : nil else {
            if text.hasPrefix("-"), Int(text) != nil {
                throw usageError("option '\(name)' must be between \(range.lowerBound) and \(range.upperBound), got '\(text)'")
            }
            throw usageError("option '\(name)' needs a whole number, got '\(text)'")
        }
        guard range.contains(number) else {
            throw usageError("option '\(name)' must be between \(range.lowerBound) and \(range.upperBound), got \(number)")
        }
        return number
    }

    /// The value of option `name` as a 64-bit unsigned number (decimal or `0x` hex).
    package func unsigned64(_ name: String) throws(UsageError) -> UInt64? {
        guard let text = try value(name) else { return nil }
        guard let number = parseUnsigned64(text) else {
            throw usageError("option '\(name)' needs a number from 0 to 2^64-1 (decimal or 0x hex), got '\(text)'")
        }
        return number
    }

    /// The value of option `name` as a finite `Double` in `range`.
    package func double(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = try value(name) else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw usageError("option '\(name)' needs a number, got '\(text)'")
        }
        guard range.contains(number) else {
            throw usageError("option '\(name)' must be between \(range.lowerBound) and \(range.upperBound), got \(text)")
        }
        return number
    }
}
