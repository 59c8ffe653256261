@testable import CRDTNote

/// An independent model of Docs/FORMAT.md's formatting rules, written apart from
/// `NoteFormatting`'s resolution: the element order is read straight from the runs, and every
/// character's attributes come from the list of every operation that covers it, decided by a
/// recursive reading of §10.4 (Docs/FORMAT.md: rule 1 for core elements the operation saw, rule 2
/// for anything else after `first`, rule 3 before the core), then the maximum by (stamp, replica).
struct FormattingOracle {
    struct Element {
        var id: ElementID
        var left: ElementID?
        var right: ElementID?
        var visible: Bool
        var isNewline: Bool
    }

    var elements: [Element] = []
    var index: [ElementID: Int] = [:]
    /// Each operation's author's version vector when it made the operation.
    var versions: [MarkOperation: VersionVector]

    init(_ note: NoteText, versions: [MarkOperation: VersionVector]) throws {
        self.versions = versions
        let sequence = try note.indexForReading()
        let text = Array(note.string.unicodeScalars)
        var k = 0
        let name = { (ref: ItemRef) -> ElementID? in
            ref.isNone ? nil : ElementID(replica: sequence.replicas[Int(ref.replica)], seq: ref.seq)
        }
        for run in sequence.runsInOrder() {
            for offset in 0..<run.length {
                let id = ElementID(replica: sequence.replicas[Int(run.replica)], seq: run.seq + offset)
                let left = offset == 0 ? name(run.left) : ElementID(replica: id.replica, seq: id.seq - 1)
                let newline = !run.isDeleted && text[k] == "\n"
                if !run.isDeleted { k += 1 }
                index[id] = elements.count
                elements.append(Element(id: id, left: left, right: name(run.right), visible: !run.isDeleted, isNewline: newline))
            }
        }
    }

    /// Where a boundary sits: (element position, 0 before it / 2 after it); the ends outside.
    func place(_ boundary: MarkBoundary) -> (Int, Int)? {
        switch boundary {
        case .documentStart: return (-1, 2)
        case .documentEnd: return (elements.count, 0)
        case .before(let id): return index[id].map { ($0, 0) }
        case .after(let id): return index[id].map { ($0, 2) }
        }
    }

    func covers(_ op: MarkOperation, _ p: Int) -> Bool {
        guard let s = place(op.start), let e = place(op.end), let f = index[op.first], let l = index[op.last],
              s < (p, 1), (p, 1) < e else { return false }
        // Rule 1 takes only what the operation's author held: the device's whole version when
        // it made the operation, recorded by the test, not the operation's own `coreVersion`.
        let id = elements[p].id
        if f <= p && p <= l, let seen = versions[op], UInt64(id.seq) < seen[id.replica] { return true }
        if p > f, let left = elements[p].left, let q = index[left], q >= f { return covers(op, q) }
        if p < f, let right = elements[p].right, let q = index[right], q <= l { return covers(op, q) }
        return false
    }

    /// Per visible character: its marks and its paragraph's attributes.
    func characters(_ formatting: NoteFormatting) -> [(marks: [String: String], paragraph: ParagraphAttributes)] {
        var out: [(marks: [String: String], paragraph: ParagraphAttributes)] = []
        var key = ParagraphKey.documentStart
        for (p, element) in elements.enumerated() where element.visible {
            let covering = formatting.marks.filter { covers($0, p) }
            var marks: [String: String] = [:]
            for name in Set(covering.map(\.name)) {
                let latest = covering.filter { $0.name == name }.max { ($0.stamp, $0.replica.rawValue) < ($1.stamp, $1.replica.rawValue) }
                if let value = latest?.value { marks[name] = value }
            }
            var paragraph = ParagraphAttributes()
            let ops = formatting.paragraphs.filter { $0.key == key }
            for name in ["heading", "list", "checked", "quote", "codeblock"] {
                let latest = ops.filter { $0.attribute.name == name }.max { ($0.stamp, $0.replica.rawValue) < ($1.stamp, $1.replica.rawValue) }
                if let latest { paragraph.apply(latest.attribute) }
            }
            out.append((marks, paragraph))
            if element.isNewline { key = .newline(element.id) }
        }
        return out
    }
}
