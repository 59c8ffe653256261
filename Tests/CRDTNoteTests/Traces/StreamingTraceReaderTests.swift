import Testing
@testable import CRDTNote
@testable import CRDTNoteTraces
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// A gzip file of `json` made of stored blocks of `blockSize` bytes (no compressor needed), in
/// `members` members, so block and window boundaries fall wherever a test wants them.
private func storedGzip(_ json: [UInt8], blockSize: Int, members: Int = 1) -> [UInt8] {
    var out: [UInt8] = []
    let perMember = max(1, (json.count + members - 1) / members)
    var memberStart = 0
    repeat {
        let member = Array(json[memberStart..<min(json.count, memberStart + perMember)])
        out += [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        var at = 0
        repeat {
            let n = min(blockSize, member.count - at)
            let last = at + n == member.count
            out += [last ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += member[at..<(at + n)]
            at += n
        } while at < member.count
        let crc = CRC32.checksum(member)
        for v in [crc, UInt32(member.count)] { out += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: v >> UInt32($0)) } }
        memberStart += perMember
    } while memberStart < json.count
    return out
}

/// A seeded random sequential trace as JSON, one transaction per line, with escapes, accents,
/// emoji (as raw UTF-8 and as surrogate-pair escapes), CRLF and ignored keys.
private func randomTraceJSON(seed: UInt64, transactions: Int) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    let pieces = ["a", "b", " ", "\\n", "\\\"", "é", "😀", "\\u00e9", "\\ud83d\\ude00", "\\r\\n", "\\t", "x\u{301}"]
    var lines: [String] = []
    var length = 0
    for t in 0..<transactions {
        var patches: [String] = []
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            let position = Int.random(in: 0...length, using: &rng)
            let delete = Int.random(in: 0...min(3, length - position), using: &rng)
            var text = ""
            var added = 0
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let piece = pieces[Int.random(in: 0..<pieces.count, using: &rng)]
                text += piece
                added += piece == "\\r\\n" || piece == "x\u{301}" ? 2 : 1
            }
            patches.append("[\(position), \(delete), \"\(text)\"]")
            length += added - delete
        }
        lines.append("{\"time\": \"2020-01-01T00:00:\(t % 60)Z\", \"patches\": [\(patches.joined(separator: ", "))]}")
    }
    return Array("{\"startContent\": \"\", \"endContent\": \"end\",\n \"txns\": [\n\(lines.joined(separator: ",\n"))\n]}\n".utf8)
}

private func traceError(_ body: () throws(TraceError) -> EditingTrace) -> TraceError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

@Suite("Streaming trace reader")
struct StreamingTraceReaderTests {
    @Test(arguments: [(UInt64(1), 1000, 1), (UInt64(2), 997, 3), (UInt64(3), 65_535, 2)])
    func traceSplitAcrossInflaterWindowsReadsLikePlainJSON(_ seed: UInt64, _ blockSize: Int, _ members: Int) throws {
        let json = randomTraceJSON(seed: seed, transactions: 6000)
        #expect(json.count > 3 * InflateWindow.chunkSize)
        guard case .sequential(let plain) = try EditingTrace(jsonBytes: json),
              case .sequential(let streamed) = try EditingTrace(fileBytes: storedGzip(json, blockSize: blockSize, members: members))
        else {
            Issue.record("expected sequential traces")
            return
        }
        #expect(streamed.transactionCount == 6000)
        #expect(streamed.transactionStarts == plain.transactionStarts)
        #expect(Array(streamed.patches) == Array(plain.patches))
        #expect(streamed.patches.contains { $0.insert.contains("😀") })
        #expect(streamed.patches.contains { $0.insert.contains("\r\n") })
    }

    @Test func gzipStreamChunksAreBoundedAndComplete() throws {
        let json = randomTraceJSON(seed: 4, transactions: 3000)
        let gz = storedGzip(json, blockSize: 40_000)
        var collected: [UInt8] = []
        try Gzip.withStream(gz, maxOutputBytes: json.count) { (stream) throws(BinaryDecodingError) in
            while case let chunk = try stream.read(), !chunk.isEmpty {
                #expect(chunk.count <= InflateWindow.historySize + InflateWindow.chunkSize + Inflater.maxMatch)
                collected += chunk
            }
        }
        #expect(collected == json)
        #expect(throws: BinaryDecodingError.self) {
            try Gzip.withStream(gz, maxOutputBytes: json.count - 1) { (stream) throws(BinaryDecodingError) in
                while case let chunk = try stream.read(), !chunk.isEmpty {}
            }
        }
    }

    @Test func everyTruncationIsAnError() throws {
        let json = Array(#"{"startContent": "", "endContent": "hé😀", "txns": [{"time": "t", "patches": [[0, 0, "h\u00e9\ud83d\ude00"]]}]}"#.utf8)
        _ = try EditingTrace(jsonBytes: json)
        for n in 0..<json.count {
            #expect(traceError { () throws(TraceError) in try EditingTrace(jsonBytes: Array(json[0..<n])) } != nil, "cut at \(n)")
        }
        let gz = storedGzip(json, blockSize: 7, members: 2)
        _ = try EditingTrace(fileBytes: gz)
        for n in 2..<gz.count {
            let error = traceError { () throws(TraceError) in try EditingTrace(fileBytes: Array(gz[0..<n])) }
            #expect(error != nil, "gzip cut at \(n)")
        }
    }

    @Test func malformedJSONFarIntoAGzipStreamSaysWhere() throws {
        var json = randomTraceJSON(seed: 5, transactions: 6000)
        // A raw control character inside a string, past the first two inflater windows.
        let target = json.indices.first { $0 > 2 * InflateWindow.chunkSize + 100 && json[$0] == UInt8(ascii: "T") } ?? 0
        json[target] = 0x01
        let line = json[0..<target].filter { $0 == 0x0A }.count + 1
        let column = target - (json[0..<target].lastIndex(of: 0x0A) ?? -1)
        let expected = "invalid trace JSON: JSON error at \(line):\(column) (byte \(target)): unescaped control character 0x1 in string"
        #expect(traceError { () throws(TraceError) in try EditingTrace(jsonBytes: json) }?.message == expected)
        #expect(traceError { () throws(TraceError) in try EditingTrace(fileBytes: storedGzip(json, blockSize: 5000)) }?.message == expected)
    }

    @Test func malformedShapesAreRefused() {
        let bad = [
            #"["txns"]"#,
            #"{"endContent": "", "txns": [{"patches": [[0, 0, "a", 1]]}]}"#,
            #"{"endContent": "", "txns": [{"patches": [[0, "0", "a"]]}]}"#,
            #"{"endContent": "", "txns": [{"patches": [[01, 0, "a"]]}]}"#,
            #"{"endContent": "", "txns": [{"patches": [[99999999999999999999, 0, "a"]]}]}"#,
            #"{"endContent": "", "txns": [{"patches": [[0, 0, "\ud800"]]}]}"#,
            #"{"endContent": "", "txns": [{"patches": [[0, 0, "\x"]]}]}"#,
            #"{"endContent": "", "txns": [], "extra": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
            #"{"endContent": "", "txns": []} x"#,
            #"{"endContent": "", "txns": [], "t": tru}"#,
        ]
        for json in bad {
            let error = traceError { () throws(TraceError) in try EditingTrace(jsonBytes: Array(json.utf8)) }
            #expect(error?.message.hasPrefix("invalid trace JSON: JSON error at 1:") == true, "\(json): \(String(describing: error))")
        }
        // Overlong UTF-8 and a truncated sequence before the closing quote, at the lead byte.
        for raw: [UInt8] in [[0xC0, 0x80], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]] {
            let json = Array(#"{"endContent": ""#.utf8) + raw + Array(#"", "txns": []}"#.utf8)
            let error = traceError { () throws(TraceError) in try EditingTrace(jsonBytes: json) }
            #expect(error?.message == "invalid trace JSON: JSON error at 1:17 (byte 16): invalid UTF-8 in string")
        }
    }

    @Test func corruptGzipTrailerOfAStreamedTraceIsReported() {
        var gz = storedGzip(randomTraceJSON(seed: 6, transactions: 2000), blockSize: 30_000)
        gz[gz.count - 8] ^= 0x01
        let error = traceError { () throws(TraceError) in try EditingTrace(fileBytes: gz) }
        #expect(error?.gzipError?.code == .checksumMismatch)
    }
}
