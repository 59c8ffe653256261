extension JSONValue {
    /// Parses UTF-8 JSON text strictly per RFC 8259: one value, optional surrounding whitespace,
    /// a leading UTF-8 byte order mark ignored. Invalid UTF-8, lone surrogates, trailing
    /// data and nesting deeper than `maxDepth` arrays/objects are errors with a position.
    package init(parsing bytes: [UInt8], maxDepth: Int = 512) throws(JSONParseError) {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer, maxDepth: maxDepth)
            do throws(JSONParseError) {
                let value = try scanner.readValue(depth: 0)
                scanner.skipWhitespace()
                guard scanner.isAtEnd else {
                    return .failure(scanner.error("unexpected \(scanner.describeCurrent()) after the JSON value"))
                }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    /// Parses the UTF-8 bytes of `text`.
    package init(parsing text: String, maxDepth: Int = 512) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8), maxDepth: maxDepth)
    }
}
