#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time of the calling thread: what a timed test spends itself, whatever else the machine
/// (or the test runner's other threads) is doing.
enum ThreadCPUTime {
    static func now() -> Duration {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return .seconds(ts.tv_sec) + .nanoseconds(ts.tv_nsec)
    }

    /// The thread CPU time `body` takes, and its result.
    static func measure<T>(_ body: () throws -> T) rethrows -> (Duration, T) {
        let start = now()
        let result = try body()
        return (now() - start, result)
    }
}
