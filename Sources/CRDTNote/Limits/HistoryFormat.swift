/// The layout a history payload is written in (Docs/FORMAT.md §11.2). Both are read by this
/// library; which one a record gets is what every device of the fleet reads (the sync engine's
/// fleet reader version, Docs/FORMAT.md, "Mixed fleets"); the library's own files take the newest.
package enum HistoryFormat: Hashable, Sendable {
    /// Six varuints per event, then the text column: minimum reader 1, so every release that
    /// knows history payloads reads it.
    case version1
    /// The events as coded columns (about a sixth of version 1 on a long-edited note):
    /// minimum reader 4, so releases that read up to 3 refuse it (`newerFormat`) and leave it alone.
    case version2

    /// The minimum reader version the payload header declares (also its format version).
    var minimumReader: UInt16 { self == .version1 ? 1 : 4 }

    /// The newest layout a reader of payload version `reader` reads.
    init(reader: UInt16) { self = reader >= HistoryFormat.version2.minimumReader ? .version2 : .version1 }
}
