import CRDTNoteSupport
import CRDTNoteDurableFiles
import CRDTNote
import Foundation

/// The ``AssetStorage`` of records exported as JSON: asset bytes are files beside the JSON.
///
/// Reading finds the local file behind an `AssetReference`; writing stores bytes as
/// `<field>-<checksum>.bin` in `jsonDirectory` and points `downloadURL` at it.
///
/// Resolution order: `downloadURL` as a path relative to the JSON file's directory, an absolute
/// path or a `file://` URL (`http(s)` and other URLs are skipped), then a file named by
/// `fileChecksum` in the assets directory, trying the checksum as is and with base64's `/`
/// (and `+`) replaced by `_` (and `-`), since `/` cannot be in a file name.
///
/// Record files come from other people and from servers, so a reference is confined: it must
/// lead to a regular file inside `jsonDirectory` or `assetsDirectory` (subfolders included).
/// Both folders are canonicalised (symbolic links and `..` resolved, as `realpath` does); the
/// reference is normalised and compared with them component by component, then walked one
/// component at a time beneath the folder, following a symbolic link only while it stays
/// inside. A reference that leads elsewhere — an absolute path, `..` components, a `file://`
/// URL pointing outside, a symbolic link out — fails with `.assetOutsideFolder` before
/// anything outside the folders is looked at, so the error is the same whether the target
/// exists or not. A FIFO, device, socket or directory fails with `.assetNotRegularFile`
/// before it is opened. The file is then opened from the folder one component at a time without
/// following links, so swapping a folder on the way for a link between the check and the read
/// fails the read (`.assetIO`) instead of leading outside.
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

    /// The paths tried for `ref`, in order, as written (before the confinement check).
    package func candidatePaths(for ref: AssetReference) -> [String] {
        candidates(for: ref).map(\.display)
    }

    /// Why an asset could not be read or written.
    public typealias Failure = RecordJSONError

    /// Reads the bytes of the asset in field `field`, checking confinement, the size limit,
    /// `size` and (for checksums written by `writeAsset`) `fileChecksum`.
    public func readAsset(_ ref: AssetReference, field: String) throws(RecordJSONError) -> [UInt8] {
        let path = "fields.\(field).value"
        let candidates = candidates(for: ref)
        guard !candidates.isEmpty else {
            throw RecordJSONError(.assetNotFound, path: path,
                "asset of field '\(field)' has no local downloadURL" + (assetsDirectory == nil ? " and no assets directory was given" : " and no fileChecksum"))
        }
        let roots = confinementRoots()
        var found: (root: [String], components: [String])?
        for candidate in candidates {
            switch Confinement.resolve(candidate.target, roots: roots) {
            case .missing: continue
            case .file(let root, let components): found = (root, components)
            case .outside:
                throw RecordJSONError(.assetOutsideFolder, path: path + "." + candidate.source,
                    "\(candidate.source) \(Confinement.quoted(candidate.reference)) of field '\(field)' leads outside "
                        + (assetsDirectory == nil ? "the record's folder" : "the record's folder and the assets folder")
                        + "; asset files must be inside")
            case .notRegular(let resolved, let kind):
                throw RecordJSONError(.assetNotRegularFile, path: path,
                    "asset file \(resolved) of field '\(field)' is \(kind), not a regular file")
            case .failed(let resolved, let code):
                throw RecordJSONError(.assetIO, path: path,
                    "cannot read asset file \(resolved) of field '\(field)': \(String(cString: strerror(code)))")
            }
            break
        }
        guard let found else {
            throw RecordJSONError(.assetNotFound, path: path,
                "no file for the asset of field '\(field)'; tried: \(candidates.map(\.display).joined(separator: ", "))")
        }
        let file = Confinement.path(found.components, beneath: found.root)
        let bytes = try readRegularFile(found.components, beneath: found.root, field: field, path: path)
        if let size = ref.size, size != Int64(bytes.count) {
            throw RecordJSONError(.assetMismatch, path: path,
                "asset file \(file) of field '\(field)' has \(bytes.count) bytes but the record says \(size)")
        }
        if let sum = ref.fileChecksum, AssetChecksum.isLocalChecksum(sum), sum != AssetChecksum.fnv1a64Hex(bytes) {
            throw RecordJSONError(.assetMismatch, path: path,
                "asset file \(file) of field '\(field)' does not match its checksum \(sum)")
        }
        return bytes
    }

    /// One place an asset may be: `display` as written in messages, `target` where it leads,
    /// `reference` the record's own text and `source` the key it came from.
    struct Candidate {
        var display: String
        var target: Confinement.Target
        var reference: String
        var source: String
    }

    /// The candidates for `ref`, in order.
    func candidates(for ref: AssetReference) -> [Candidate] {
        var result: [Candidate] = []
        if let url = ref.downloadURL, !url.isEmpty {
            if url.hasPrefix("file://") {
                let path = Confinement.fileURLPath(url)
                result.append(Candidate(display: path ?? url, target: path.map { .path(Confinement.components($0)) } ?? .invalid,
                                        reference: url, source: "downloadURL"))
            } else if !url.contains("://") {
                let display = url.hasPrefix("/") ? url : Self.join(jsonDirectory, url)
                let target: Confinement.Target
                if url.contains("\0") {
                    target = .invalid
                } else if url.hasPrefix("/") {
                    target = .path(Confinement.components(url))
                } else {
                    // Relative to the folder's canonical form, as the kernel would resolve it.
                    target = Confinement.canonical(jsonDirectory).map { .path(Confinement.components($0 + "/" + url)) } ?? .folderMissing
                }
                result.append(Candidate(display: display, target: target, reference: url, source: "downloadURL"))
            }
        }
        if let dir = assetsDirectory, let sum = ref.fileChecksum, !sum.isEmpty, !sum.contains("\0") {
            var names: [String] = []
            if !sum.contains("/") { names.append(sum) }
            names.append(sum.replacingOccurrences(of: "/", with: "_"))
            names.append(sum.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-"))
            let canonicalDir = Confinement.canonical(dir)
            for name in names where name != "." && name != ".." && !result.contains(where: { $0.display == Self.join(dir, name) }) {
                result.append(Candidate(display: Self.join(dir, name),
                                        target: canonicalDir.map { .path(Confinement.components($0 + "/" + name)) } ?? .folderMissing,
                                        reference: sum, source: "fileChecksum"))
            }
        }
        return result
    }

    /// The folders references may lead into, canonical and as given.
    func confinementRoots() -> [Confinement.Root] {
        [jsonDirectory, assetsDirectory].compactMap { folder -> Confinement.Root? in
            guard let folder, let canonical = Confinement.canonical(folder) else { return nil }
            let given = folder.hasPrefix("/") ? folder : (Confinement.currentDirectory() ?? "/") + "/" + folder
            return Confinement.Root(canonical: Confinement.components(canonical), alias: Confinement.components(given))
        }
    }

    /// Reads a file already resolved inside the folders: opened component by component without
    /// following any symbolic link (one that appeared since the walk fails the read) and without
    /// blocking, checked to be a regular file within the size limit before a byte is read.
    private func readRegularFile(_ components: [String], beneath root: [String], field: String, path: String) throws(RecordJSONError) -> [UInt8] {
        let file = Confinement.path(components, beneath: root)
        func ioError(_ code: Int32) -> RecordJSONError {
            RecordJSONError(.assetIO, path: path, "cannot read asset file \(file) of field '\(field)': \(String(cString: strerror(code)))")
        }
        let fd: Int32
        switch Confinement.openFile(components, beneath: root) {
        case .success(let opened): fd = opened
        case .failure(let failure) where failure.code == ELOOP || failure.code == ENOTDIR:
            throw RecordJSONError(.assetIO, path: path,
                "cannot read asset file \(file) of field '\(field)': its path changed while it was being opened (a part of it is now a symbolic link or not a folder)")
        case .failure(let failure): throw ioError(failure.code)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ioError(errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw RecordJSONError(.assetNotRegularFile, path: path, "asset file \(file) of field '\(field)' is not a regular file")
        }
        if Int64(info.st_size) > maxAssetSize {
            throw RecordJSONError(.assetTooLarge, path: path,
                "asset file \(file) of field '\(field)' has \(info.st_size) bytes, over the limit of \(maxAssetSize)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                // The file grew since fstat: keep reading, within the limit.
                guard Int64(count) <= maxAssetSize else { break }
                bytes.append(contentsOf: repeatElement(0, count: min(count, 1 << 20)))
            }
            let n = bytes.withUnsafeMutableBytes { raw in
                read(fd, raw.baseAddress! + count, raw.count - count)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw ioError(errno)
            }
            if n == 0 { break }
            count += n
        }
        if Int64(count) > maxAssetSize {
            throw RecordJSONError(.assetTooLarge, path: path,
                "asset file \(file) of field '\(field)' is over the limit of \(maxAssetSize) bytes")
        }
        bytes.removeLast(bytes.count - count)
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
    package static func writeAsset(_ bytes: [UInt8], named: String, in directory: String) throws(RecordJSONError) -> AssetReference {
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
