/// Random text mixing ASCII, CRLF, combining marks, BMP and astral-plane characters.
package enum RandomText {
    package static let pieces: [String] = ["a", "b", "c", "x", " ", "\r\n", "\n", "e\u{301}", "\u{301}", "é", "中", "😀", "👍🏽", "𝄞", "Ω", "🇫🇷"]

    /// Between 1 and `maxPieces` random pieces.
    package static func make<G: RandomNumberGenerator>(_ rng: inout G, maxPieces: Int = 4) -> String {
        let n = Int.random(in: 1...maxPieces, using: &rng)
        return (0..<n).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }.joined()
    }
}
