/// The token-sequence diff shared by the line and word stages: patience anchoring on tokens
/// unique to both sides, then Myers' diff with a step budget, continued chunk by chunk.
extension TextDiff {
    struct TokenDiffer {
        /// Below this depth, gaps between anchors are anchored again on their own unique tokens.
        static let maximumDepth = 64
        /// Largest edit distance one Myers run explores before committing to its furthest point.
        static let maximumDistance = 128

        let a: [Int32], b: [Int32]
        private let anchorable: [Bool]
        /// Changed stretches in token indices, in order, never adjacent to each other.
        private(set) var hunks: [Hunk] = []
        private var countA: [Int32], countB: [Int32], positionB: [Int32]
        private var trace: [Int] = []

        init(a: [Int32], b: [Int32], anchorable: [Bool]) {
            self.a = a
            self.b = b
            self.anchorable = anchorable
            countA = [Int32](repeating: 0, count: anchorable.count)
            countB = countA
            positionB = countA
        }

        /// Diffs `a[alo..<ahi]` against `b[blo..<bhi]`, appending hunks.
        mutating func diff(_ alo: Int, _ ahi: Int, _ blo: Int, _ bhi: Int, depth: Int) {
            var alo = alo, blo = blo, ahi = ahi, bhi = bhi
            while alo < ahi && blo < bhi && a[alo] == b[blo] { alo += 1; blo += 1 }
            while alo < ahi && blo < bhi && a[ahi - 1] == b[bhi - 1] { ahi -= 1; bhi -= 1 }
            if alo == ahi || blo == bhi {
                emit(Hunk(oldStart: alo, oldEnd: ahi, newStart: blo, newEnd: bhi))
                return
            }
            let anchors = depth < Self.maximumDepth ? uniqueAnchors(alo, ahi, blo, bhi) : []
            if anchors.isEmpty {
                myers(alo, ahi, blo, bhi)
                return
            }
            var x = alo, y = blo
            for (i, j) in anchors {
                diff(x, i, y, j, depth: depth + 1)
                x = i + 1; y = j + 1
            }
            diff(x, ahi, y, bhi, depth: depth + 1)
        }

        /// Appends a hunk, joining it to the previous one when they touch.
        private mutating func emit(_ h: Hunk) {
            if h.oldStart == h.oldEnd && h.newStart == h.newEnd { return }
            if var last = hunks.last, last.oldEnd == h.oldStart, last.newEnd == h.newStart {
                last.oldEnd = h.oldEnd; last.newEnd = h.newEnd
                hunks[hunks.count - 1] = last
            } else {
                hunks.append(h)
            }
        }

        /// The longest increasing run (by position in b) of the anchorable tokens occurring
        /// exactly once in each side, in order; patience sorting, each token placed on the leftmost pile
        /// whose top has a larger b position, linked to the top of the pile to its left.
        private mutating func uniqueAnchors(_ alo: Int, _ ahi: Int, _ blo: Int, _ bhi: Int) -> [(Int, Int)] {
            for i in alo..<ahi { countA[Int(a[i])] += 1 }
            for j in blo..<bhi { countB[Int(b[j])] += 1; positionB[Int(b[j])] = Int32(j) }
            var pairs: [(Int, Int)] = []
            for i in alo..<ahi {
                let t = Int(a[i])
                if countA[t] == 1 && countB[t] == 1 && anchorable[t] { pairs.append((i, Int(positionB[t]))) }
            }
            for i in alo..<ahi { countA[Int(a[i])] = 0 }
            for j in blo..<bhi { countB[Int(b[j])] = 0 }
            if pairs.isEmpty { return [] }
            var tops: [Int] = []
            var link = [Int](repeating: -1, count: pairs.count)
            for (p, pair) in pairs.enumerated() {
                var lo = 0, hi = tops.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if pairs[tops[mid]].1 > pair.1 { hi = mid } else { lo = mid + 1 }
                }
                link[p] = lo > 0 ? tops[lo - 1] : -1
                if lo == tops.count { tops.append(p) } else { tops[lo] = p }
            }
            var out: [(Int, Int)] = []
            var p = tops.last!
            while p >= 0 { out.append(pairs[p]); p = link[p] }
            return out.reversed()
        }

        /// Myers' greedy diff of the region, run after run: each run explores at most
        /// `maximumDistance` steps; when that does not reach the end, the path to the furthest
        /// point reached (largest x + y, then smallest diagonal) is kept and a new run starts there.
        private mutating func myers(_ alo: Int, _ ahi: Int, _ blo: Int, _ bhi: Int) {
            var x0 = alo, y0 = blo
            while x0 < ahi || y0 < bhi {
                (x0, y0) = myersRun(x0, ahi, y0, bhi)
            }
        }

        /// One budgeted run from (x0, y0); returns where it stopped.
        private mutating func myersRun(_ x0: Int, _ ahi: Int, _ y0: Int, _ bhi: Int) -> (Int, Int) {
            let n = ahi - x0, m = bhi - y0
            if n == 0 || m == 0 {
                emit(Hunk(oldStart: x0, oldEnd: ahi, newStart: y0, newEnd: bhi))
                return (ahi, bhi)
            }
            let limit = min(Self.maximumDistance, n + m)
            let width = 2 * limit + 3, offset = limit + 1
            var v = [Int](repeating: -1, count: width)
            v[offset + 1] = 0
            // Level d of the trace is v as it was before step d. Only its entries for diagonals
            // -d-1...d+1 are ever read back, so only those are copied.
            if trace.count < (limit + 1) * width { trace = [Int](repeating: -1, count: (limit + 1) * width) }
            let found: (k: Int, d: Int)? = a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in
                    v.withUnsafeMutableBufferPointer { pv in
                        trace.withUnsafeMutableBufferPointer { pt in
                            let va = pa.baseAddress! + x0, vb = pb.baseAddress! + y0
                            let vv = pv.baseAddress! + offset, tt = pt.baseAddress!
                            for d in 0...limit {
                                (tt + d * width + offset - d - 1).update(from: vv - d - 1, count: 2 * d + 3)
                                var k = -d
                                while k <= d {
                                    let down = vv[k + 1], right = vv[k - 1]
                                    if down < 0 && right < 0 { vv[k] = -1; k += 2; continue }
                                    var x = right < down ? down : right + 1
                                    var y = x - k
                                    if x > n || y > m || y < 0 { vv[k] = -1; k += 2; continue }
                                    while x < n && y < m && va[x] == vb[y] { x += 1; y += 1 }
                                    vv[k] = x
                                    if x == n && y == m { return (k, d) }
                                    k += 2
                                }
                            }
                            return nil
                        }
                    }
                }
            }
            if let found {
                backtrack(from: found.k, depth: found.d, x0: x0, y0: y0, width: width, offset: offset)
                return (ahi, bhi)
            }
            var bestK = 0, bestSum = -1
            for k in stride(from: -limit, through: limit, by: 2) where v[offset + k] >= 0 {
                let sum = 2 * v[offset + k] - k
                if sum > bestSum { bestSum = sum; bestK = k }
            }
            let x = v[offset + bestK]
            backtrack(from: bestK, depth: limit, x0: x0, y0: y0, width: width, offset: offset)
            return (x0 + x, y0 + x - bestK)
        }

        private mutating func backtrack(from k: Int, depth: Int, x0: Int, y0: Int, width: Int, offset: Int) {
            var k = k
            var steps: [(x: Int, y: Int, isDelete: Bool)] = []
            for d in stride(from: depth, to: 0, by: -1) {
                let base = d * width + offset
                let down = trace[base + k + 1], right = trace[base + k - 1]
                let previousK = right < down ? k + 1 : k - 1
                let previousX = trace[base + previousK], previousY = previousX - previousK
                steps.append((previousX, previousY, previousK == k - 1))
                k = previousK
            }
            for step in steps.reversed() {
                emit(Hunk(oldStart: x0 + step.x, oldEnd: x0 + step.x + (step.isDelete ? 1 : 0),
                          newStart: y0 + step.y, newEnd: y0 + step.y + (step.isDelete ? 0 : 1)))
            }
        }
    }
}
