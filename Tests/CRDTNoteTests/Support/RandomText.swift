@testable import CRDTNote

/// Random text mixing ASCII, CRLF, combining marks, BMP and astral-plane characters.
enum RandomText {
    static let pieces: [String] = ["a", "b", "c", "x", " ", "\r\n", "\n", "e\u{301}", "\u{301}", "é", "中", "😀", "👍🏽", "𝄞", "Ω", "🇫🇷"]

    static func make<G: RandomNumberGenerator>(_ rng: inout G, maxPieces: Int = 4) -> String {
        let n = Int.random(in: 1...maxPieces, using: &rng)
        return (0..<n).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }.joined()
    }
}

extension NoteText {
    /// Fails the calling test when the internal structure is inconsistent.
    var invariantViolations: [String] { sequence.invariantViolations() }
    var visibleIDs: [(replica: ReplicaID, seq: UInt32)] { sequence.visibleIDs() }
}
