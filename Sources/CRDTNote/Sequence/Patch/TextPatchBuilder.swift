/// Collects replacements in the order they happen and coalesces neighbours: a change that
/// starts right where the previous one's new text ends (typing on, deleting forwards at the
/// same place) or ends right where it starts (deleting backwards) joins it. New text goes into
/// one shared buffer (a piece's text is a range of it), so recording costs no allocation per
/// change; Strings are made once, when the patch is read.
struct TextPatchBuilder {
    private var pieces: [Piece] = []
    private var buffer: [UInt8] = []

    private struct Piece {
        var scalarStart: Int
        var utf16Start: Int
        var removedScalars: Int
        var removedUTF16: Int
        var text: Range<Int>
        var textScalars: Int
        var textUTF16: Int
    }

    init() {}

    /// A builder with room for `pieces` changes and `bytes` bytes of new text before it grows.
    init(pieces: Int, bytes: Int) {
        self.pieces.reserveCapacity(pieces)
        buffer.reserveCapacity(bytes)
    }

    /// Records that `removedScalars` scalars (`removedUTF16` units) at `scalarOffset` /
    /// `utf16Offset` of the current text were replaced by valid UTF-8 `text`.
    mutating func replace<Bytes: Collection<UInt8>>(
        scalarOffset: Int, utf16Offset: Int, removedScalars: Int, removedUTF16: Int,
        with text: Bytes, scalars: Int, utf16: Int
    ) {
        if removedScalars == 0 && scalars == 0 { return }
        if var last = pieces.last {
            if scalarOffset == last.scalarStart + last.textScalars {
                // Starts where the previous new text ends.
                last.removedScalars += removedScalars
                last.removedUTF16 += removedUTF16
                last.text = append(text, after: last.text)
                last.textScalars += scalars
                last.textUTF16 += utf16
                pieces[pieces.count - 1] = last
                return
            }
            if removedScalars > 0, scalarOffset + removedScalars == last.scalarStart {
                // Removes the text just before the previous replacement.
                last.scalarStart = scalarOffset
                last.utf16Start = utf16Offset
                last.removedScalars += removedScalars
                last.removedUTF16 += removedUTF16
                let start = buffer.count
                buffer.append(contentsOf: text)
                buffer.append(contentsOf: buffer[last.text])
                last.text = start..<buffer.count
                last.textScalars += scalars
                last.textUTF16 += utf16
                pieces[pieces.count - 1] = last
                joinLastTwoIfAdjacent()
                return
            }
        }
        let start = buffer.count
        buffer.append(contentsOf: text)
        pieces.append(Piece(scalarStart: scalarOffset, utf16Start: utf16Offset, removedScalars: removedScalars,
                            removedUTF16: removedUTF16, text: start..<buffer.count, textScalars: scalars, textUTF16: utf16))
    }

    /// The buffer range holding `range`'s bytes followed by `text`: extended in place when
    /// `range` ends the buffer, else copied to its end first.
    private mutating func append<Bytes: Collection<UInt8>>(_ text: Bytes, after range: Range<Int>) -> Range<Int> {
        if text.isEmpty { return range }
        if range.upperBound == buffer.count || range.isEmpty {
            let start = range.isEmpty ? buffer.count : range.lowerBound
            buffer.append(contentsOf: text)
            return start..<buffer.count
        }
        let start = buffer.count
        buffer.append(contentsOf: buffer[range])
        buffer.append(contentsOf: text)
        return start..<buffer.count
    }

    /// After the last piece grew backwards it may now start where the one before ends.
    private mutating func joinLastTwoIfAdjacent() {
        guard pieces.count >= 2 else { return }
        let last = pieces[pieces.count - 1]
        var previous = pieces[pieces.count - 2]
        guard last.scalarStart == previous.scalarStart + previous.textScalars else { return }
        previous.removedScalars += last.removedScalars
        previous.removedUTF16 += last.removedUTF16
        previous.text = append(buffer[last.text], after: previous.text)
        previous.textScalars += last.textScalars
        previous.textUTF16 += last.textUTF16
        pieces.removeLast(2)
        pieces.append(previous)
    }

    /// The replacements, without those that changed nothing.
    var replacements: [TextReplacement] {
        var replacements: [TextReplacement] = []
        replacements.reserveCapacity(pieces.count)
        for p in pieces where p.removedScalars != 0 || p.textScalars != 0 {
            replacements.append(TextReplacement(utf16Range: p.utf16Start..<p.utf16Start + p.removedUTF16,
                                                scalarRange: p.scalarStart..<p.scalarStart + p.removedScalars,
                                                text: String(decoding: buffer[p.text], as: UTF8.self)))
        }
        return replacements
    }
}
