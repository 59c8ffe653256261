import CRDTNote

/// The one size limit of a record's JSON form, shared by the reader and every writer: the CLI
/// reads no record file larger than this, and writes none (it writes compactly when the indented
/// form would be larger, and refuses when even that is), so every record file crdtnote writes
/// can be read back by crdtnote.
extension CloudRecord {
    /// Most bytes of a record file (or standard input holding a record): 64 MiB, far above any
    /// real note record (CloudKit caps a record at 1 MB plus assets), yet small enough that a
    /// wrong path cannot exhaust memory.
    package static let maximumJSONBytes = 64 << 20

    /// The record file's bytes as a writer must write them: indented (the readable form) when
    /// that fits within `limit`, else compact; nil when even the compact form is over `limit`.
    package func jsonBytesWithin(_ limit: Int = CloudRecord.maximumJSONBytes) -> [UInt8]? {
        let pretty = jsonBytes(pretty: true)
        if pretty.count <= limit { return pretty }
        let compact = jsonBytes(pretty: false)
        return compact.count <= limit ? compact : nil
    }
}
