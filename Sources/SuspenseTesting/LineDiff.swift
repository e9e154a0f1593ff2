/// A line diff in the unified format: Myers' shortest edit script over lines, grouped into hunks
/// with a few lines of context. `-` marks a line of the reference, `+` a line of the actual text.
struct LineDiff {
    enum Change: Equatable {
        case same
        case removed
        case added
    }

    struct Line: Equatable {
        let change: Change
        let text: Substring
        /// How many reference (old) and actual (new) lines come before this one.
        let oldIndex: Int
        let newIndex: Int
    }

    /// Every line of both texts, in order: common lines once, removed before added.
    let lines: [Line]

    init(from old: String, to new: String) {
        lines = Self.edits(from: Self.split(old), to: Self.split(new))
    }

    /// Whether the two texts have the same lines (they may still differ in a final newline).
    var isEmpty: Bool { lines.allSatisfy { $0.change == .same } }

    /// The hunks, each with an `@@ -a,b +c,d @@` header, and `context` common lines around
    /// every change. Empty when no line differs.
    func unified(context: Int = 3) -> String {
        let changed = lines.indices.filter { lines[$0].change != .same }
        guard var first = changed.first else { return "" }
        var output: [String] = []
        var last = first
        for index in changed.dropFirst() {
            if index - last > 2 * context {
                output.append(hunk(lines[max(0, first - context)...min(lines.count - 1, last + context)]))
                first = index
            }
            last = index
        }
        output.append(hunk(lines[max(0, first - context)...min(lines.count - 1, last + context)]))
        return output.joined(separator: "\n")
    }

    /// The header line a hunk belongs to (a frame's or a chunk's `── … ──` line), for a text
    /// made of sections: the last such line at or before the hunk's first line.
    private func section(before index: Int) -> Substring? {
        var index = index
        while index >= 0 {
            let text = lines[index].text
            if text.hasPrefix("── "), text.hasSuffix(" ──") { return text }
            index -= 1
        }
        return nil
    }

    private func hunk(_ slice: ArraySlice<Line>) -> String {
        let oldCount = slice.count(where: { $0.change != .added })
        let newCount = slice.count(where: { $0.change != .removed })
        let start = slice.first!
        // As in `diff -u`: a range of zero lines starts at the line before it.
        let oldStart = start.oldIndex + (oldCount == 0 ? 0 : 1)
        let newStart = start.newIndex + (newCount == 0 ? 0 : 1)
        var text = "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@"
        // Name the frame or chunk the change is in, as `diff -p` names the function.
        if let firstChange = slice.firstIndex(where: { $0.change != .same }),
            let section = section(before: firstChange), !slice.contains(where: { $0.text == section })
        {
            text += " " + section
        }
        for line in slice {
            switch line.change {
            case .same: text += "\n " + line.text
            case .removed: text += "\n-" + line.text
            case .added: text += "\n+" + line.text
            }
        }
        return text
    }

    /// The lines of a text; a final newline ends the last line rather than starting an empty one.
    static func split(_ text: String) -> [Substring] {
        guard !text.isEmpty else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if text.hasSuffix("\n") { lines.removeLast() }
        return lines
    }

    /// The common first and last lines, then Myers' shortest edit script for the lines between,
    /// or, past `maxEdits` edits, all of those removed and then all added, so that a large
    /// snapshot that changed completely cannot take quadratic time and memory.
    static func edits(from old: [Substring], to new: [Substring], maxEdits: Int = 1_000) -> [Line] {
        var prefix = 0
        while prefix < min(old.count, new.count), old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        var result = (0..<prefix).map { Line(change: .same, text: old[$0], oldIndex: $0, newIndex: $0) }
        let oldMiddle = Array(old[prefix..<(old.count - suffix)])
        let newMiddle = Array(new[prefix..<(new.count - suffix)])
        let middle =
            shortestEdit(from: oldMiddle, to: newMiddle, maxEdits: maxEdits)
            ?? oldMiddle.indices.map { Line(change: .removed, text: oldMiddle[$0], oldIndex: $0, newIndex: 0) }
            + newMiddle.indices.map {
                Line(change: .added, text: newMiddle[$0], oldIndex: oldMiddle.count, newIndex: $0)
            }
        result += middle.map {
            Line(change: $0.change, text: $0.text, oldIndex: $0.oldIndex + prefix, newIndex: $0.newIndex + prefix)
        }
        let oldEnd = old.count - suffix
        let newEnd = new.count - suffix
        result += (0..<suffix).map {
            Line(change: .same, text: old[oldEnd + $0], oldIndex: oldEnd + $0, newIndex: newEnd + $0)
        }
        return result
    }

    /// Myers' O((N+M)·D) algorithm: the furthest-reaching path on each diagonal for each number
    /// of edits D, kept per D (diagonals -D-1 through D+1 only) so that the path can be walked
    /// back. `nil` past `maxEdits` edits.
    private static func shortestEdit(from old: [Substring], to new: [Substring], maxEdits: Int) -> [Line]? {
        let n = old.count
        let m = new.count
        let offset = n + m + 1
        var frontier = [Int](repeating: 0, count: 2 * offset + 1)
        var trace: [[Int]] = []
        var found = false
        search: for d in 0...min(n + m, maxEdits) {
            trace.append(Array(frontier[(offset - d - 1)...(offset + d + 1)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1])
                    ? frontier[offset + k + 1] : frontier[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, old[x] == new[y] {
                    x += 1
                    y += 1
                }
                frontier[offset + k] = x
                if x >= n, y >= m {
                    found = true
                    break search
                }
            }
        }
        guard found else { return nil }
        // Walk back from the end, collecting lines in reverse.
        var result: [Line] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let base = d + 1
            let k = x - y
            let previousK = k == -d || (k != d && v[base + k - 1] < v[base + k + 1]) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : v[base + previousK]
            let previousY = d == 0 ? 0 : previousX - previousK
            while x > previousX, y > previousY {
                x -= 1
                y -= 1
                result.append(Line(change: .same, text: old[x], oldIndex: x, newIndex: y))
            }
            if d > 0 {
                if x == previousX {
                    result.append(Line(change: .added, text: new[previousY], oldIndex: x, newIndex: previousY))
                } else {
                    result.append(Line(change: .removed, text: old[previousX], oldIndex: previousX, newIndex: y))
                }
            }
            x = previousX
            y = previousY
        }
        return result.reversed()
    }
}
