// The child process of DurableAppendKillTests: appends numbered 16-byte records to the file named
// by its argument through the durable-file layer, flushing each, and acknowledges each on
// standard output ("ack <n>\n") only after the flush returned — until it is killed.
//
// Usage: DurableAppendChild <file> [<limit>]   (a limit stops it after that many records)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif
import CRDTNoteDurableFiles

/// Writes all of `text` to a file descriptor, unbuffered; false when it cannot.
func emit(_ text: String, to descriptor: Int32) -> Bool {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress.map { $0 + offset }, bytes.count - offset) }
        if written < 0 {
            if errno == EINTR { continue }
            return false
        }
        offset += written
    }
    return true
}

/// Record `n`: "record " and eight digits, newline (16 bytes).
func record(_ n: Int) -> [UInt8] {
    let digits = String(n)
    return Array(("record " + String(repeating: "0", count: max(0, 8 - digits.count)) + digits + "\n").utf8)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    _ = emit("usage: DurableAppendChild <file> [<limit>]\n", to: STDERR_FILENO)
    exit(64)
}
let path = arguments[1]
let limit = arguments.count >= 3 ? Int(arguments[2]) ?? Int.max : Int.max
let files = PosixFileSystem()
var n = 0
while n < limit {
    do {
        try files.append(record(n), to: path, sync: true)
        // The first append created the file: make its folder entry durable before acknowledging.
        if n == 0 { try files.syncDirectory(at: DurablePath.directory(of: path)) }
    } catch {
        _ = emit("DurableAppendChild: \(error)\n", to: STDERR_FILENO)
        exit(1)
    }
    guard emit("ack \(n)\n", to: STDOUT_FILENO) else { exit(1) }
    n += 1
}
exit(0)
