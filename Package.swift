// swift-tools-version:6.0
// crdtnote: conflict-free note text for CloudKit-synced apps. No package dependencies.
//
// Modules (Docs/ARCHITECTURE.md): apps import CRDTNote; their tests may import CRDTNoteTesting;
// tools that read and write records as JSON files import CRDTNoteFiles. CRDTNoteSupport,
// CRDTNoteDurableFiles, CRDTNoteToolSupport and CRDTNoteTraces are the package's own plumbing
// (`package` access, no product), cut by who links them.
import PackageDescription

let package = Package(
    name: "crdtnote",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "CRDTNote", targets: ["CRDTNote"]),
        .library(name: "CRDTNoteTesting", targets: ["CRDTNoteTesting"]),
        .library(name: "CRDTNoteFiles", targets: ["CRDTNoteFiles"]),
        .executable(name: "crdtnote", targets: ["CRDTNoteCLI"]),
        .executable(name: "crdtnote-bench", targets: ["CRDTNoteBench"]),
    ],
    targets: [
        // Plumbing the app links (through CRDTNote): JSON, base64, UTF-8 validation, FNV-1a.
        .target(name: "CRDTNoteSupport", path: "Sources/CRDTNoteSupport"),
        // The one file layer (app-linked; the note library uses it): atomic replace, fsync of
        // file and folder, file locks, the POSIX file system and a fault-injecting one for tests.
        .target(name: "CRDTNoteDurableFiles", path: "Sources/CRDTNoteDurableFiles"),
        // Plumbing only tools and tests link: command-line parsing, SplitMix64. Never a
        // dependency of CRDTNote, CRDTNoteDurableFiles or CRDTNoteFiles.
        .target(name: "CRDTNoteToolSupport", path: "Sources/CRDTNoteToolSupport"),
        // What apps import: clock, text CRDT, format, records, merger, stores, note library, sync engine.
        .target(name: "CRDTNote", dependencies: ["CRDTNoteSupport", "CRDTNoteDurableFiles"], path: "Sources/CRDTNote"),
        // Records as CloudKit Web Services JSON files, asset folders, the folder-of-records store.
        .target(name: "CRDTNoteFiles", dependencies: ["CRDTNote", "CRDTNoteSupport", "CRDTNoteDurableFiles"], path: "Sources/CRDTNoteFiles"),
        // For apps' tests: an in-memory CloudKit-like database with fault plans, device simulation.
        .target(name: "CRDTNoteTesting", dependencies: ["CRDTNote", "CRDTNoteSupport", "CRDTNoteToolSupport", "CRDTNoteDurableFiles"], path: "Sources/CRDTNoteTesting"),
        // Editing traces (gzip, trace JSON, replay) for the CLI, benchmarks and tests only.
        .target(name: "CRDTNoteTraces", dependencies: ["CRDTNote", "CRDTNoteSupport"], path: "Sources/CRDTNoteTraces"),
        .executableTarget(
            name: "CRDTNoteCLI",
            dependencies: ["CRDTNote", "CRDTNoteFiles", "CRDTNoteTesting", "CRDTNoteTraces", "CRDTNoteSupport",
                           "CRDTNoteToolSupport", "CRDTNoteDurableFiles"],
            path: "Sources/CRDTNoteCLI"),
        .executableTarget(
            name: "CRDTNoteBench",
            dependencies: ["CRDTNote", "CRDTNoteFiles", "CRDTNoteTraces", "CRDTNoteSupport", "CRDTNoteToolSupport",
                           "CRDTNoteDurableFiles", "CRDTNoteTesting"],
            path: "Benchmarks/CRDTNoteBench"),
        // The child process of the durable-files kill test (Tests/CRDTNoteTests/DurableFiles):
        // appends and flushes records, acknowledging each on standard output, until killed.
        .executableTarget(name: "DurableAppendChild", dependencies: ["CRDTNoteDurableFiles"], path: "Tests/DurableAppendChild"),
        // Several of these write one folder record store at once (FolderStoreProcessTests).
        .executableTarget(name: "FolderStoreChild", dependencies: ["CRDTNote", "CRDTNoteFiles"], path: "Tests/FolderStoreChild"),
        // Shared by the test targets: fixtures, trace lookup, random text.
        .target(name: "CRDTNoteTestSupport", dependencies: ["CRDTNote", "CRDTNoteSupport", "CRDTNoteTraces"], path: "Tests/CRDTNoteTestSupport"),
        .testTarget(
            name: "CRDTNoteTests",
            dependencies: ["CRDTNote", "CRDTNoteFiles", "CRDTNoteTesting", "CRDTNoteTraces", "CRDTNoteSupport", "CRDTNoteToolSupport",
                           "CRDTNoteDurableFiles", "CRDTNoteTestSupport"],
            path: "Tests/CRDTNoteTests"),
        .testTarget(
            name: "CRDTNoteCLITests",
            dependencies: ["CRDTNote", "CRDTNoteFiles", "CRDTNoteCLI", "CRDTNoteSupport", "CRDTNoteToolSupport", "CRDTNoteTestSupport",
                           "CRDTNoteDurableFiles"],
            path: "Tests/CRDTNoteCLITests"),
    ],
    swiftLanguageModes: [.v6]
)
