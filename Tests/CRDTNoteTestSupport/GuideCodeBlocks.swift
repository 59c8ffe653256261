import Foundation

/// The ```swift blocks of a guide in Docs/ that a test file must compile: every block not
/// preceded by a `<!-- not compiled: why -->` line, nor by a `<!-- compiled: FILE -->` line (an
/// Apple-only excerpt of FILE, which .ci/typecheck-cloudkit compiles and matches), without its
/// imports and blank edge lines, each line trimmed. The guides' tests check each stands in
/// their own source line for line.
package enum GuideCodeBlocks {
    /// The compiled blocks of `Docs/<guide>`.
    package static func blocks(ofGuide guide: String) throws -> [[String]] {
        let text = try String(contentsOfFile: RepositoryPaths.docs + "/" + guide, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [[String]] = []
        var i = 0
        while i < lines.count {
            guard lines[i] == "```swift" else { i += 1; continue }
            let skipped = i > 0 && (lines[i - 1].hasPrefix("<!-- not compiled:") || lines[i - 1].hasPrefix("<!-- compiled:"))
            var block: [String] = []
            i += 1
            while i < lines.count && lines[i] != "```" { block.append(lines[i].trimmingCharacters(in: .whitespaces)); i += 1 }
            // Imports stand at the top of the test file; the code after them must stand there as written.
            while let first = block.first, first.hasPrefix("import ") || first.isEmpty { block.removeFirst() }
            if !skipped { blocks.append(block) }
        }
        return blocks
    }

    /// The blocks of `guide` that do not stand line for line (indentation aside) in the file
    /// at `sourcePath`, and how many blocks were checked.
    package static func missing(fromGuide guide: String, in sourcePath: String) throws -> (missing: [[String]], checked: Int) {
        let source = try String(contentsOfFile: sourcePath, encoding: .utf8)
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let blocks = try blocks(ofGuide: guide)
        let missing = blocks.filter { block in
            !sourceLines.indices.contains { start in
                start + block.count <= sourceLines.count && Array(sourceLines[start..<start + block.count]) == block
            }
        }
        return (missing, blocks.count)
    }
}
