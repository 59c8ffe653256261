/// Plain-text tables for the human-readable output.
enum Table {
    /// Rows of cells as aligned lines: the first row is the header, first column left-aligned.
    static func render(_ rows: [[String]]) -> [String] {
        guard let header = rows.first else { return [] }
        var widths = [Int](repeating: 0, count: header.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        var out: [String] = []
        for (r, row) in rows.enumerated() {
            let cells = row.enumerated().map { i, cell in Format.pad(cell, widths[min(i, widths.count - 1)], right: i > 0) }
            out.append(cells.joined(separator: "  "))
            if r == 0 { out.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
        return out
    }
}
