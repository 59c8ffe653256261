import CRDTNote
import CRDTNoteSupport
import Foundation

/// Whole-text update workloads for `NoteText.setText` (issue 11): self-contained, seeded.
/// Not wired to a command yet; `crdtnote-bench settext` is meant to call `SetTextBench.run`.
enum SetTextBench {
    struct Workload {
        var name: String
        var old: String
        var new: String
    }

    /// Lines of 10 words `w000000` … (7-character words, so about 80 bytes a line).
    static func note(bytes: Int, prefix: String = "w", seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        var lines: [String] = []
        var size = 0, word = 0
        while size < bytes {
            let line = (0..<10).map { _ in
                word += 1
                return prefix + String(format: "%06d", (word * 7919 + rng.below(7)) % 1_000_000)
            }.joined(separator: " ")
            lines.append(line)
            size += line.utf8.count + 1
        }
        return lines
    }

    static func workloads() -> [Workload] {
        var out: [Workload] = []
        for (label, size) in [("1 MB", 1 << 20), ("10 MB", 10 << 20)] {
            let text = note(bytes: size, seed: 1).joined(separator: "\n") + "\n"
            var scalars = Array(text.unicodeScalars)
            scalars[scalars.count / 2] = "!"
            out.append(Workload(name: "one character, \(label)", old: text, new: string(scalars)))
        }
        var rng = SplitMix64(seed: 2)
        let lines = note(bytes: 1 << 20, seed: 2)
        var words = lines.map { $0.split(separator: " ").map(String.init) }
        for n in 0..<1_000 {
            let l = rng.below(words.count)
            words[l][rng.below(words[l].count)] = "edit\(n)é"
        }
        out.append(Workload(name: "1,000 word edits, 1 MB", old: lines.joined(separator: "\n") + "\n",
                            new: words.map { $0.joined(separator: " ") }.joined(separator: "\n") + "\n"))
        var pasted = lines
        pasted.insert(contentsOf: note(bytes: 8_000, prefix: "p", seed: 3).prefix(100), at: pasted.count / 3)
        out.append(Workload(name: "100-line paste, 1 MB", old: lines.joined(separator: "\n") + "\n",
                            new: pasted.joined(separator: "\n") + "\n"))
        out.append(Workload(name: "whole rewrite, 100 KB", old: note(bytes: 100_000, seed: 4).joined(separator: "\n"),
                            new: note(bytes: 100_000, prefix: "r", seed: 5).joined(separator: "\n")))
        let line = note(bytes: 10 << 20, seed: 6).joined(separator: " ")
        var one = Array(line.unicodeScalars)
        one[one.count / 3] = "!"
        out.append(Workload(name: "one character, 10 MB single line", old: line, new: string(one)))
        out.append(Workload(name: "one line among 100k blank lines", old: String(repeating: "\n", count: 100_000),
                            new: String(repeating: "\n", count: 50_000) + "x" + String(repeating: "\n", count: 50_000)))
        return out
    }

    /// Median milliseconds of `setText` (diff plus recording the edits) per workload.
    static func run(runs: Int, only: Int? = nil) throws -> [(name: String, ms: Double, inserted: UInt64)] {
        let all = workloads()
        return try (only.map { [all[$0]] } ?? all).map { w in
            var times: [Double] = []
            var inserted: UInt64 = 0
            let base = try NoteText(w.old, replica: ReplicaID(rawValue: 1))
            for _ in 0..<max(1, runs) {
                var note = base.forked(as: ReplicaID(rawValue: 2))
                let start = DispatchTime.now().uptimeNanoseconds
                try note.setText(w.new)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                precondition(note.string == w.new, "setText did not reach the text")
                inserted = note.version[ReplicaID(rawValue: 2)]
            }
            return (w.name, times.sorted()[times.count / 2], inserted)
        }
    }

    private static func string(_ scalars: [Unicode.Scalar]) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
