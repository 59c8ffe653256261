import Foundation

/// Folders of this repository that tests read: the root, Docs/ and the golden fixtures.
package enum RepositoryPaths {
    /// The package root (the folder holding Package.swift).
    package static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }   // file name, CRDTNoteTestSupport, Tests
        return url.path
    }()

    /// `Docs/` of this repository.
    package static var docs: String { root + "/Docs" }

    /// `Docs/examples/`: the example records of the README.
    package static var examples: String { root + "/Docs/examples" }

    /// `Tests/Fixtures/`.
    package static var fixtures: String { root + "/Tests/Fixtures" }
}
