import CRDTNoteSupport
import CRDTNote
import Foundation

/// The ``AssetStorage`` of records exported as JSON: asset bytes are files beside the JSON.
///
/// Reading finds the local file behind an `AssetReference`; writing stores bytes as
/// `<field>-<checksum>.bin` in `jsonDirectory` and points `downloadURL` at it.
///
/// Resolution order: `downloadURL` as a `file://` URL or as a path relative to the JSON
/// file's directory (absolute paths are used as given; `http(s)` URLs are skipped), then a
/// file named by `fileChecksum` in the assets directory, trying the checksum as is and with
/// base64's `/` (and `+`) replaced by `_` (and `-`), since `/` cannot be in a file name.
///
/// The JSON is the user's own local input here: `downloadURL` may name any readable file.
public struct AssetLocator: AssetStorage {
    /// Directory of the JSON file; relative `downloadURL`s resolve against it.
    public var jsonDirectory: String
    /// Optional directory of files named by checksum (the CLI's `--assets`).
    public var assetsDirectory: String?
    /// Largest asset read, in bytes (default ``NoteLimits/maximumAssetBytes``, 32 MiB), checked
    /// against the file's size before any byte is read, so a bad record cannot exhaust memory.
    public var maxAssetSize: Int64

    /// A locator for a JSON file in `jsonDirectory`.
    public init(jsonDirectory: String, assetsDirectory: String? = nil, maxAssetSize: Int64 = Int64(NoteLimits.default.maximumAssetBytes)) {
        self.jsonDirectory = jsonDirectory
        self.assetsDirectory = assetsDirectory
        self.maxAssetSize = maxAssetSize
    }

    /// The paths tried for `ref`, in order.
    public func candidatePaths(for ref: AssetReference) -> [String] {
        var paths: [String] = []
        if let url = ref.downloadURL, !url.isEmpty {
            if url.hasPrefix("file://") {
                if let path = URL(string: url)?.path, !path.isEmpty { paths.append(path) }
            } else if !url.contains("://") {
                paths.append(url.hasPrefix("/") ? url : Self.join(jsonDirectory, url))
            }
        }
        if let dir = assetsDirectory, let sum = ref.fileChecksum, !sum.isEmpty {
            var names: [String] = []
            if !sum.contains("/") { names.append(sum) }
            names.append(sum.replacingOccurrences(of: "/", with: "_"))
            names.append(sum.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-"))
            for name in names where name != "." && name != ".." && !paths.contains(Self.join(dir, name)) {
                paths.append(Self.join(dir, name))
            }
        }
        return paths
    }

    /// Why an asset could not be read or written.
    public typealias Failure = RecordJSONError

    /// Reads the bytes of the asset in field `field`, checking the size limit, `size` and (for
    /// checksums written by `writeAsset`) `fileChecksum`.
    public func readAsset(_ ref: AssetReference, field: String) throws(RecordJSONError) -> [UInt8] {
        let path = "fields.\(field).value"
        let candidates = candidatePaths(for: ref)
        guard !candidates.isEmpty else {
            throw RecordJSONError(.assetNotFound, path: path,
                "asset of field '\(field)' has no local downloadURL" + (assetsDirectory == nil ? " and no assets directory was given" : " and no fileChecksum"))
        }
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard let found = candidates.first(where: { fm.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue }) else {
            throw RecordJSONError(.assetNotFound, path: path,
                "no file for the asset of field '\(field)'; tried: \(candidates.joined(separator: ", "))")
        }
        let fileSize = (try? fm.attributesOfItem(atPath: found)[.size] as? NSNumber)?.int64Value
        if let fileSize, fileSize > maxAssetSize {
            throw RecordJSONError(.assetTooLarge, path: path,
                "asset file \(found) of field '\(field)' has \(fileSize) bytes, over the limit of \(maxAssetSize)")
        }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: found)))
        } catch {
            throw RecordJSONError(.assetIO, path: path, "cannot read asset file \(found) of field '\(field)': \(error)")
        }
        if Int64(bytes.count) > maxAssetSize {
            throw RecordJSONError(.assetTooLarge, path: path,
                "asset file \(found) of field '\(field)' is over the limit of \(maxAssetSize) bytes")
        }
        if let size = ref.size, size != Int64(bytes.count) {
            throw RecordJSONError(.assetMismatch, path: path,
                "asset file \(found) of field '\(field)' has \(bytes.count) bytes but the record says \(size)")
        }
        if let sum = ref.fileChecksum, AssetChecksum.isLocalChecksum(sum), sum != AssetChecksum.fnv1a64Hex(bytes) {
            throw RecordJSONError(.assetMismatch, path: path,
                "asset file \(found) of field '\(field)' does not match its checksum \(sum)")
        }
        return bytes
    }

    /// Writes the bytes of field `field` as `<field>-<checksum>.bin` in `jsonDirectory` (see
    /// ``writeAsset(_:named:in:)``); the reference's `downloadURL` is that file name.
    public func writeAsset(_ bytes: [UInt8], field: String) throws(RecordJSONError) -> AssetReference {
        try Self.writeAsset(bytes, named: "\(field)-\(AssetChecksum.fnv1a64Hex(bytes)).bin", in: jsonDirectory)
    }

    /// Writes `bytes` atomically (temporary file, then rename) as `directory/named` and returns
    /// a reference to it: `downloadURL` = `named`, `size`, and `fileChecksum` = 64-bit FNV-1a
    /// as 16 lowercase hex digits (a local integrity check, not CloudKit's own checksum).
    public static func writeAsset(_ bytes: [UInt8], named: String, in directory: String) throws(RecordJSONError) -> AssetReference {
        guard !named.isEmpty, named != ".", named != "..", !named.contains("/") else {
            throw RecordJSONError(.assetIO, path: "", "asset file name '\(named)' must be a single path component")
        }
        let target = join(directory, named)
        do {
            try AtomicFile.write(bytes, to: target)
        } catch {
            throw RecordJSONError(.assetIO, path: "", "cannot write asset file \(target): \(error.message)")
        }
        return AssetReference(fileChecksum: AssetChecksum.fnv1a64Hex(bytes), size: Int64(bytes.count), downloadURL: named)
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
