extension HLCTimestamp: CustomStringConvertible {
    /// ISO-8601 UTC time with milliseconds, then `#` and the counter: `"2026-11-21T12:00:00.123Z#5"`.
    ///
    /// Formatted with integer arithmetic rather than a date formatter so the output never depends
    /// on locale, time zone or platform, and so logging many timestamps stays cheap. Years past
    /// 9999 (possible up to 10889) simply get a fifth digit.
    public var description: String {
        let millisecondsPerDay: UInt64 = 86_400_000
        let days = milliseconds / millisecondsPerDay
        let msOfDay = milliseconds % millisecondsPerDay
        let date = HLCTimestamp.civilDate(daysSince1970: days)

        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        HLCTimestamp.append(date.year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        HLCTimestamp.append(date.month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        HLCTimestamp.append(date.day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        HLCTimestamp.append(msOfDay / 3_600_000, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        HLCTimestamp.append(msOfDay / 60_000 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        HLCTimestamp.append(msOfDay / 1_000 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        HLCTimestamp.append(msOfDay % 1_000, width: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
        bytes.append(UInt8(ascii: "#"))
        HLCTimestamp.append(UInt64(counter), width: 1, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    ///
    /// Works in 400-year eras (146,097 days each) of years that start on March 1st, so the leap
    /// day falls at the end of the year and month lengths follow a fixed 153-days-per-5-months
    /// pattern; only non-negative day counts occur here, so all arithmetic stays unsigned.
    static func civilDate(daysSince1970 days: UInt64) -> (year: UInt64, month: UInt64, day: UInt64) {
        // 719,468 days separate 0000-03-01 from 1970-01-01.
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted % 146_097
        // Subtract the leap days so far in the era (every 4th year, not every 100th, but every 400th).
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchBasedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchBasedMonth + 2) / 5 + 1
        let month = marchBasedMonth < 10 ? marchBasedMonth + 3 : marchBasedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Appends `value` in decimal, left-padded with zeros to at least `width` digits.
    private static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        if digits.count < width {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count))
        }
        bytes.append(contentsOf: digits.reversed())
    }
}
