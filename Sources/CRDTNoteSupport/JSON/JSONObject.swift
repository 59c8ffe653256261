/// A JSON object: ordered `(key, value)` pairs.
///
/// Order is kept so that a document can be written back as it was read. The parser refuses
/// duplicate keys (`JSONScanner.readObject`); an object built in code may still append one,
/// and lookup then returns the *last* value for a key.
package struct JSONObject: Hashable, Sendable, Sequence {
    /// One member of an object.
    package struct Member: Hashable, Sendable {
        /// The member's key.
        package var key: String
        /// The member's value.
        package var value: JSONValue
    }

    /// The members in document order.
    package private(set) var members: [Member]

    /// An object with the given members, in order.
    package init(_ pairs: [(String, JSONValue)] = []) {
        members = pairs.map { Member(key: $0.0, value: $0.1) }
    }

    /// Wraps members built by the parser.
    init(members: [Member]) {
        self.members = members
    }

    /// The keys in document order (duplicates included).
    package var keys: [String] { members.map(\.key) }

    /// The number of members (duplicates included).
    package var count: Int { members.count }

    /// Whether the object has no members.
    package var isEmpty: Bool { members.isEmpty }

    /// Index of the last member named `key`.
    private func lastIndex(of key: String) -> Int? {
        var i = members.count - 1
        while i >= 0 {
            if members[i].key == key { return i }
            i -= 1
        }
        return nil
    }

    /// The last value stored under `key`. Setting replaces that value in place (keeping the
    /// key's position), appends a new key at the end, or with `nil` removes every member named `key`.
    package subscript(key: String) -> JSONValue? {
        get {
            lastIndex(of: key).map { members[$0].value }
        }
        set {
            if let newValue {
                if let i = lastIndex(of: key) {
                    members[i].value = newValue
                } else {
                    members.append(Member(key: key, value: newValue))
                }
            } else {
                members.removeAll { $0.key == key }
            }
        }
    }

    /// Appends a member even if the key already exists (a duplicate key).
    package mutating func append(key: String, value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    /// Iterates `(key, value)` pairs in document order.
    package func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
        members.lazy.map { (key: $0.key, value: $0.value) }.makeIterator()
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object with the literal's members, in order.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject {
    /// This object without members named in `keys`.
    package func removing(_ keys: Set<String>) -> JSONObject {
        JSONObject(members: members.filter { !keys.contains($0.key) })
    }
}
