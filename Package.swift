// swift-tools-version:6.0
// crdtnote: conflict-free note text for CloudKit-synced apps. No package dependencies.
//
// Modules (Docs/ARCHITECTURE.md): apps import CRDTNote; their tests may import CRDTNoteTesting;
// tools that read and write records as JSON files import CRDTNoteFiles. CRDTNoteSupport and
// CRDTNoteTraces are the package's own plumbing (`package` access, no product).
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
        // Plumbing shared inside the package: JSON, base64, UTF-8 validation, seeded random
        // numbers, atomic files, command-line parsing.
        .target(name: "CRDTNoteSupport", path: "Sources/CRDTNoteSupport"),
        // What apps import: clock, text CRDT, format, records, merger, stores, sync engine.
        .target(name: "CRDTNote", dependencies: ["CRDTNoteSupport"], path: "Sources/CRDTNote"),
        // Records as CloudKit Web Services JSON files, asset folders, the folder-of-records store.
        .target(name: "CRDTNoteFiles", dependencies: ["CRDTNote", "CRDTNoteSupport"], path: "Sources/CRDTNoteFiles"),
        // For apps' tests: an in-memory CloudKit-like database with fault plans, device simulation.
        .target(name: "CRDTNoteTesting", dependencies: ["CRDTNote", "CRDTNoteSupport"], path: "Sources/CRDTNoteTesting"),
        // Editing traces (gzip, trace JSON, replay) for the CLI, benchmarks and tests only.
        .target(name: "CRDTNoteTraces", dependencies: ["CRDTNote", "CRDTNoteSupport"], path: "Sources/CRDTNoteTraces"),
        .executableTarget(
            name: "CRDTNoteCLI",
            dependencies: ["CRDTNote", "CRDTNoteFiles", "CRDTNoteTesting", "CRDTNoteTraces", "CRDTNoteSupport"],
            path: "Sources/CRDTNoteCLI"),
        .executableTarget(
            name: "CRDTNoteBench",
            dependencies: ["CRDTNote", "CRDTNoteFiles", "CRDTNoteTraces", "CRDTNoteSupport"],
            path: "Benchmarks/CRDTNoteBench"),
        // Shared by the test targets: fixtures, trace lookup, random text.
        .target(name: "CRDTNoteTestSupport", dependencies: ["CRDTNote", "CRDTNoteSupport", "CRDTNoteTraces"], path: "Tests/CRDTNoteTestSupport"),
        .testTarget(
            name: "CRDTNoteTests",
            dependencies: ["CRDTNote", "CRDTNoteFiles", "CRDTNoteTesting", "CRDTNoteTraces", "CRDTNoteSupport", "CRDTNoteTestSupport"],
            path: "Tests/CRDTNoteTests"),
        .testTarget(
            name: "CRDTNoteCLITests",
            dependencies: ["CRDTNote", "CRDTNoteFiles", "CRDTNoteCLI", "CRDTNoteSupport", "CRDTNoteTestSupport"],
            path: "Tests/CRDTNoteCLITests"),
    ],
    swiftLanguageModes: [.v6]
)
