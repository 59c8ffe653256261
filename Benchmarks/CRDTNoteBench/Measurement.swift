#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Wall-clock timings of repeated runs, in milliseconds.
struct Timing {
    var samples: [Double]

    var median: Double {
        let s = samples.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
    var min: Double { samples.min() ?? 0 }
    var max: Double { samples.max() ?? 0 }
}

enum Measure {
    /// Milliseconds taken by `body`, with its result.
    static func time<T>(_ body: () throws -> T) rethrows -> (ms: Double, value: T) {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try body()
        return (milliseconds(clock.now - start), value)
    }

    /// A duration in milliseconds.
    static func milliseconds(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
    }

    /// This process's resource usage (`getrusage(RUSAGE_SELF)`), nil when the call fails.
    private static func ownUsage() -> rusage? {
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        return getrusage(who, &usage) == 0 ? usage : nil
    }

    /// User plus system CPU time of this process so far, in milliseconds (less sensitive than wall
    /// time to other processes on a shared machine).
    static func cpuMilliseconds() -> Double {
        guard let usage = ownUsage() else { return 0 }
        func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
        return ms(usage.ru_utime) + ms(usage.ru_stime)
    }

    /// Peak resident set size of this process so far, from the OS.
    static func peakRSSBytes() -> Int {
        guard let usage = ownUsage() else { return 0 }
        #if canImport(Darwin)
        return Int(usage.ru_maxrss)          // bytes on Darwin
        #else
        return Int(usage.ru_maxrss) * 1024   // kilobytes on Linux
        #endif
    }
}

/// Number formatting for the human-readable output.
enum Format {
    static func ms(_ value: Double) -> String {
        value >= 100 ? fixed(value, 0) + " ms" : value >= 1 ? fixed(value, 2) + " ms" : fixed(value, 3) + " ms"
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var p = 1.0
        for _ in 0..<digits { p *= 10 }
        let rounded = (abs(value) * p).rounded()
        let whole = Int(rounded / p)
        var frac = String(Int(rounded) - whole * Int(p))
        while frac.count < digits { frac = "0" + frac }
        return (value < 0 ? "-" : "") + "\(whole)" + (digits > 0 ? "." + frac : "")
    }

    /// 1234567 -> "1,234,567".
    static func count(_ value: Int) -> String {
        let digits = String(abs(value))
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return (value < 0 ? "-" : "") + out
    }

    static func bytes(_ value: Int) -> String {
        value >= 1 << 20 ? fixed(Double(value) / Double(1 << 20), 1) + " MiB (\(count(value)) B)" : count(value) + " B"
    }

    static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: Swift.max(0, width - s.count))
        return right ? fill + s : s + fill
    }
}
