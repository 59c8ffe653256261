import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteDurableFiles
import Foundation

/// Writes a note record and its asset files so that a failure leaves nothing behind.
enum RecordOutput {
    /// Where the asset files of a record written to `destination` go: beside the file, or for
    /// standard output, into `assetsFolder` (`--assets DIR`) or else the current directory.
    static func assetDirectory(for destination: OutputDestination, assetsFolder: String?) -> String {
        switch destination {
        case .file(let path): OutputWriter.directory(of: path)
        case .standardOutput: assetsFolder ?? "."
        }
    }

    /// Writes `record` as CloudKit Web Services JSON to `destination`, and every note asset it
    /// holds as `<field>-<checksum>.bin` in `assetDirectory` (its `downloadURL` names the file).
    ///
    /// Assets are first written into a hidden staging folder, then renamed into place, then the
    /// JSON is written; if any step fails, the asset files this call created are removed again.
    /// The JSON is indented when that fits the record-file limit a reader applies
    /// (`CloudRecord.maximumJSONBytes`), else compact; a record whose compact JSON is over it is
    /// refused (`limit exceeded`, nothing written). Returns the record as written (its asset
    /// references name the files written).
    @discardableResult
    static func write(_ record: NoteRecord, to destination: OutputDestination, assetDirectory: String) throws(CLIError) -> NoteRecord {
        // Before any asset file is placed: an output that is not a regular file is refused.
        if case .file(let path) = destination { try OutputWriter.checkReplaceable(path) }
        guard NoteSchema.Field.written.contains(where: { record.record.assetBytes($0) != nil }) else {
            try OutputWriter.write(try json(of: record, for: destination), to: destination)
            return record
        }
        var placed: [String] = []
        do throws(CLIError) {
            let saved = try placeAssets(of: record, in: assetDirectory, placed: &placed)
            try OutputWriter.write(try json(of: saved, for: destination), to: destination)
            return saved
        } catch {
            // Best effort: the error being reported is the one that matters.
            for path in placed { try? PosixFileSystem().removeFile(at: path) }
            throw error
        }
    }

    /// The record file's bytes within the limit readers apply, or `limit exceeded` (65).
    static func json(of record: NoteRecord, for destination: OutputDestination,
                     limit: Int = CloudRecord.maximumJSONBytes) throws(CLIError) -> [UInt8] {
        if let bytes = record.record.jsonBytesWithin(limit) { return bytes }
        let size = record.record.jsonBytes(pretty: false).count
        let file: String
        switch destination {
        case .file(let path): file = path
        case .standardOutput: file = "<stdout>"
        }
        throw CLIError(code: .dataError,
                       message: "limit exceeded: record '\(record.record.recordName)' would be \(size) bytes of JSON even written compactly, over the \(limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes") a reader accepts; nothing written",
                       file: file)
    }

    /// Saves the assets through a staging folder; appends each file it creates to `placed`.
    /// Every file operation goes through the package's file layer (`PosixFileSystem`); once the
    /// files are renamed into place, `directory` is flushed so they survive a power loss.
    private static func placeAssets(of record: NoteRecord, in directory: String, placed: inout [String]) throws(CLIError) -> NoteRecord {
        func failure(_ message: String) -> CLIError {
            CLIError(code: .cannotWrite, message: message, file: directory)
        }
        let files = PosixFileSystem()
        let staging = directory + "/.crdtnote-assets-\(getpid())-\(UUID().uuidString)"
        do {
            try files.createDirectory(at: staging)
        } catch {
            throw failure("cannot write asset files: \(error.message)")
        }
        // Best effort: a leftover hidden staging folder is harmless.
        defer { try? files.removeTree(at: staging) }
        let saved: NoteRecord
        do {
            saved = try record.savingAssets(to: AssetLocator(jsonDirectory: staging), all: true)
        } catch {
            throw failure("cannot write asset files: cannot save the asset: \(error)")
        }
        let names: [String]
        do {
            names = try files.contentsOfDirectory(at: staging)
        } catch {
            throw failure("cannot list staged asset files: \(error.message)")
        }
        for name in names {
            let target = directory + "/" + name
            // Names carry the content's checksum: an existing file of that name is kept on failure.
            let existed: Bool
            if case .failed = POSIX.entry(at: target) { existed = false } else { existed = true }
            do {
                try files.rename(staging + "/" + name, to: target)
            } catch {
                throw CLIError(code: .cannotWrite, message: "cannot write asset file: \(DurableFileError.reason(error.errorNumber))", file: target)
            }
            if !existed { placed.append(target) }
        }
        do {
            try files.syncDirectory(at: directory)
        } catch {
            throw failure("cannot flush the asset files to disk: \(error.message)")
        }
        return saved
    }
}
