import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import Foundation

/// A note record read from a JSON file (or standard input), with the bytes of its asset fields.
struct RecordFile: Sendable {
    /// The path as the user gave it (`-` for standard input).
    var path: String
    /// The record and its asset bytes.
    var record: NoteRecord

    /// The name used in messages: the path, or `<stdin>`.
    var displayName: String { Self.displayName(path) }

    /// The name used in messages for `path`.
    static func displayName(_ path: String) -> String {
        path == InputReader.standardInputPath ? "<stdin>" : path
    }

    /// Reads `path`: JSON, record type, and the note's asset files, looked up beside the JSON
    /// (relative `downloadURL`) and in `assets`. Fails with the file and JSON path at fault; a
    /// device record is refused as one (``notANote(_:file:)``).
    static func load(_ path: String, assets: String?) throws(CLIError) -> RecordFile {
        try note(readRecord(path), path: path, assets: assets)
    }

    /// Reads `path` as one CloudKit record of any type, without its asset files.
    static func readRecord(_ path: String) throws(CLIError) -> CloudRecord {
        // The record-file limit every writer keeps to (`CloudRecord.maximumJSONBytes`).
        let data = try InputReader.read(path, limit: CloudRecord.maximumJSONBytes)
        do {
            return try CloudRecord.record(fromJSON: [UInt8](data))
        } catch {
            throw .recordJSON(error, file: displayName(path))
        }
    }

    /// The note `cloudRecord` (read from `path`) holds, with its asset files; fails unless it is
    /// a note record.
    static func note(_ cloudRecord: CloudRecord, path: String, assets: String?) throws(CLIError) -> RecordFile {
        let name = displayName(path)
        guard cloudRecord.recordType == NoteSchema.recordType else { throw notANote(cloudRecord, file: name) }
        let jsonDirectory = path == InputReader.standardInputPath ? "." : OutputWriter.directory(of: path)
        let files = CLIAssetFiles(locator: AssetLocator(jsonDirectory: jsonDirectory, assetsDirectory: assets))
        do {
            return RecordFile(path: path, record: try NoteRecord(cloudRecord, loadingAssetsFrom: files))
        } catch {
            // Asset errors name the record too: one file may be an export of many notes.
            var named = error
            named.message = "record '\(cloudRecord.recordName)': " + error.message
            throw .recordJSON(named, file: name)
        }
    }

    /// The refusal of a record that is not a note: a device record says what it is and which
    /// commands take it; any other type is named as found.
    static func notANote(_ cloudRecord: CloudRecord, file: String) -> CLIError {
        guard cloudRecord.recordType != DeviceSchema.recordType else {
            return CLIError(
                code: .dataError,
                message: "is a device record (\(DeviceSchema.recordType)), not a note; 'crdtnote show' and 'crdtnote verify' read it",
                file: file)
        }
        return CLIError(
            code: .dataError,
            message: "not a note record: record type is '\(cloudRecord.recordType)', expected '\(NoteSchema.recordType)'",
            file: file, location: "recordType")
    }

    /// Reads the note (version gate, payload checksums, legacy upgrade), edited from now on as
    /// `replica`.
    func read(as replica: ReplicaID = ReplicaID(rawValue: 0)) throws(CLIError) -> NoteReading {
        do {
            return try record.readVerified(as: replica)
        } catch {
            throw .noteRecord(error, file: displayName)
        }
    }
}

/// The asset files of a record read by the CLI: the locator's lookup (beside the JSON, then by
/// checksum in `--assets`), and besides it a file that crdtnote wrote (`<field>-<checksum>.bin`)
/// in the assets folder, so records written to standard output with their assets in
/// `--assets DIR` can be read back with `--assets DIR`.
struct CLIAssetFiles: AssetStorage {
    /// The locator for the JSON file and `--assets` folder.
    var locator: AssetLocator

    func readAsset(_ reference: AssetReference, field: String) throws(RecordJSONError) -> [UInt8] {
        do {
            return try locator.readAsset(reference, field: field)
        } catch {
            guard error.code == .assetNotFound, let fallback = crdtnoteAssetFile(reference, field: field) else { throw error }
            return try fallback.locator.readAsset(fallback.reference, field: field)
        }
    }

    func writeAsset(_ bytes: [UInt8], field: String) throws(RecordJSONError) -> AssetReference {
        try locator.writeAsset(bytes, field: field)
    }

    /// The reference and locator for the file crdtnote names `<field>-<checksum>.bin` in the
    /// assets folder, when that file exists.
    private func crdtnoteAssetFile(_ ref: AssetReference, field: String) -> (reference: AssetReference, locator: AssetLocator)? {
        guard let folder = locator.assetsDirectory, let sum = ref.fileChecksum, !sum.isEmpty,
              !sum.contains("/"), !field.contains("/")
        else { return nil }
        let name = "\(field)-\(sum).bin"
        // lstat, not stat: a symbolic link of that name is handed to the locator, which refuses
        // it if it leads out, whether or not its target exists.
        var info = stat()
        guard lstat(folder + "/" + name, &info) == 0 else { return nil }
        var named = ref
        named.downloadURL = name
        return (named, AssetLocator(jsonDirectory: folder, maxAssetSize: locator.maxAssetSize))
    }
}

/// Reads the plain text a note is given (`new`, `edit`).
enum TextInput {
    /// Reads `path` (or standard input) as UTF-8, exactly: no newline is added or removed.
    static func read(_ path: String) throws(CLIError) -> String {
        let bytes = [UInt8](try InputReader.read(path))
        let text = String(decoding: bytes, as: UTF8.self)
        // Decoding replaces bad sequences with U+FFFD, so a round trip differs exactly there.
        if !text.utf8.elementsEqual(bytes) {
            var first = 0
            for (a, b) in zip(text.utf8, bytes) {
                if a != b { break }
                first += 1
            }
            throw CLIError(code: .dataError, message: "text is not valid UTF-8", file: RecordFile.displayName(path),
                           location: "byte \(first)")
        }
        return text
    }
}
