/// Why and where a JSON document could not be read.
///
/// `offset` is the 0-based byte offset; `line` and `column` are 1-based, with the column
/// counted in bytes from the start of the line.
package struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, e.g. "expected ',' or ']' in array".
    package var message: String
    /// Byte offset of the problem in the input.
    package var offset: Int
    /// 1-based line of the problem.
    package var line: Int
    /// 1-based column (in bytes) of the problem.
    package var column: Int

    /// An error with an explicit position.
    package init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// An error at `offset` in `bytes`; line and column are computed here, only on failure.
    init(message: String, offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        var i = 0
        while i < end {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        self.init(message: message, offset: offset, line: line, column: offset - lineStart + 1)
    }

    /// "line:column (byte offset): message".
    package var description: String {
        "JSON error at \(line):\(column) (byte \(offset)): \(message)"
    }
}
