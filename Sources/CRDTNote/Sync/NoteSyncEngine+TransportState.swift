/// What `NoteSyncEngine` keeps in the library's transport slot: the change-feed position and
/// the subscription saved on the server. Bytes: a version byte (1), then the token (a flag
/// byte, then length-prefixed bytes when present) and the subscription id (the same).
struct EngineTransportState: Equatable, Sendable {
    var token: ChangeToken?
    var subscriptionID: String?

    init(token: ChangeToken? = nil, subscriptionID: String? = nil) {
        self.token = token
        self.subscriptionID = subscriptionID
    }

    /// The state in `bytes`; unreadable or missing bytes give an empty state (the feed is then
    /// read from the start, which merging absorbs).
    init(decoding bytes: [UInt8]?) {
        self.init()
        guard let bytes else { return }
        var reader = ByteReader(bytes)
        guard (try? reader.readByte()) == 1 else { return }
        if (try? reader.readByte()) == 1, let token = try? reader.readLengthPrefixed("change token") {
            self.token = ChangeToken(bytes: Array(token))
        }
        if (try? reader.readByte()) == 1, let id = try? reader.readLengthPrefixed("subscription id") {
            subscriptionID = String(decoding: id, as: UTF8.self)
        }
    }

    func encoded() -> [UInt8] {
        var out = ByteWriter(reservingCapacity: 64)
        out.writeByte(1)
        for part in [token?.bytes, subscriptionID.map { Array($0.utf8) }] {
            if let part {
                out.writeByte(1)
                out.writeLengthPrefixed(part)
            } else {
                out.writeByte(0)
            }
        }
        return out.bytes
    }
}
