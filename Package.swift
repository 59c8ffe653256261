// swift-tools-version:6.0
// crdtnote: conflict-free note text for CloudKit-synced apps. No package dependencies.
import PackageDescription

let package = Package(
    name: "crdtnote",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "CRDTNote", targets: ["CRDTNote"]),
        .executable(name: "crdtnote", targets: ["CRDTNoteCLI"]),
        .executable(name: "crdtnote-bench", targets: ["CRDTNoteBench"]),
    ],
    targets: [
        .target(name: "CRDTNote", path: "Sources/CRDTNote"),
        .executableTarget(name: "CRDTNoteCLI", dependencies: ["CRDTNote"], path: "Sources/CRDTNoteCLI"),
        .executableTarget(name: "CRDTNoteBench", dependencies: ["CRDTNote"], path: "Benchmarks/CRDTNoteBench"),
        .testTarget(name: "CRDTNoteTests", dependencies: ["CRDTNote"], path: "Tests/CRDTNoteTests"),
        .testTarget(name: "CRDTNoteCLITests", dependencies: ["CRDTNote", "CRDTNoteCLI"], path: "Tests/CRDTNoteCLITests"),
    ],
    swiftLanguageModes: [.v6]
)
