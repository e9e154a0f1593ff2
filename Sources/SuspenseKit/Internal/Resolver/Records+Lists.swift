// SuspenseList: which boundary of which row may reveal, decided from the records alone, so that
// the resolver (when it settles a Suspense) and the tree it builds (what a held row shows) read
// the same answer.
//
// A list's rows are its children: the positions one level below the list's own. A row is
// recorded only when something in it needs ordering: a Suspense that no other Suspense of the row
// encloses (a boundary of the row), or a nested list. A row's boundary may reveal once its own
// content is ready and its list lets the row reveal: every row before it (forwards) or after it
// (backwards) is done, or every row is ready (together); a nested list's rows also wait for the
// outer list to let the row that holds it reveal. A row is *done* when each of its boundaries
// revealed or was discarded (an ErrorBoundary caught an error around it: it counts as settled),
// and *ready* when each could reveal now.

/// A row of a SuspenseList: the list, and where the row stands among the list's children.
struct ListRow: Equatable {
    let list: ListIndex
    let place: RowPlace
}

/// Where a row stands: its child's index in the list, and for an element of a `ForEach` (or a
/// `for` loop) written as a child of the list, the element's offset (else -1). Ordered as the
/// document is.
struct RowPlace: Equatable, Comparable {
    let index: Int32
    let element: Int32

    static func < (lhs: RowPlace, rhs: RowPlace) -> Bool {
        (lhs.index, lhs.element) < (rhs.index, rhs.element)
    }
}

/// One SuspenseList of the render.
struct ListRecord {
    let order: RevealOrder
    let tail: RevealTail
    /// The depth of the list's own position; its rows stand one level deeper.
    let depth: Int32
    /// The row of the list around it that holds it, when it is a row's nested list.
    let outer: ListRow?
    /// The scope it stands in, to tell whether it was discarded.
    let scope: ScopeIndex
    /// The rows that hold boundaries or nested lists, by index.
    var rows: [Row] = []
    /// The row whose fallback a collapsed tail shows, as last reported (nil: none).
    var shownRow: RowPlace?
    /// The children that are a `ForEach` or a `for` loop: each of their elements is a row.
    var spreads: Set<Int32> = []
    /// How many rows at the start (`doneFirst`) and at the end (`doneLast`) are known to be done,
    /// so that finding the row that holds another skips them: a long list revealing row by row
    /// costs each row one step, not a walk over every row before it. Only ever too low (a row
    /// added, or one whose boundary showed its fallback again, sets them back to zero).
    var doneFirst = 0
    var doneLast = 0

    struct Row {
        let place: RowPlace
        var boundaries: [SuspenseIndex] = []
        var lists: [ListIndex] = []
    }

    /// The position of the row at `place` in `rows`, adding it (in order) if it is new.
    mutating func row(_ place: RowPlace) -> Int {
        // Rows are met in document order, but for those of content evaluated again later: a
        // binary search for where it stands.
        var low = 0
        var high = rows.count
        if let last = rows.last, last.place < place { low = high }
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].place < place { low = middle + 1 } else { high = middle }
        }
        if low < rows.count, rows[low].place == place { return low }
        let at = low
        rows.insert(Row(place: place), at: at)
        forgetDone()
        return at
    }

    mutating func forgetDone() {
        doneFirst = 0
        doneLast = 0
    }
}

extension Records {
    /// The row of `list` that the place at `link` stands in; nil when `link` is not below it.
    func row(at link: PositionLink?, in list: ListIndex) -> ListRow? {
        let depth = lists[list].depth
        var level = link
        var below: PositionLink?
        while let current = level, current.depth > depth + 1 {
            below = current
            level = current.parent
        }
        guard let level, level.depth == depth + 1 else { return nil }
        let element = lists[list].spreads.contains(level.index) ? below?.index ?? -1 : -1
        return ListRow(list: list, place: RowPlace(index: level.index, element: element))
    }

    /// Whether a Suspense revealed its content or was discarded.
    func isDone(_ suspense: SuspenseIndex) -> Bool {
        suspenses[suspense].isResolved || !isAlive(suspense)
    }

    /// Whether a Suspense could reveal now: done, or nothing beneath it pending or undecided.
    func isReady(_ suspense: SuspenseIndex) -> Bool {
        if isDone(suspense) { return true }
        let record = suspenses[suspense]
        return record.pendingCount == 0 && record.deferred == 0 && !record.undecided
    }

    func isAlive(list: ListIndex) -> Bool {
        !scopes[lists[list].scope].isDead
    }

    func isDone(_ row: ListRecord.Row) -> Bool {
        row.boundaries.allSatisfy { isDone($0) } && row.lists.allSatisfy { isDone(list: $0) }
    }

    func isReady(_ row: ListRecord.Row) -> Bool {
        row.boundaries.allSatisfy { isReady($0) } && row.lists.allSatisfy { isReady(list: $0) }
    }

    func isDone(list: ListIndex) -> Bool {
        !isAlive(list: list) || lists[list].rows.allSatisfy { isDone($0) }
    }

    func isReady(list: ListIndex) -> Bool {
        !isAlive(list: list) || lists[list].rows.allSatisfy { isReady($0) }
    }

    /// The row that holds back `row` (its list's, or an outer list's), with its list; nil when
    /// the row may reveal.
    func holder(of row: ListRow) -> ListRow? {
        let list = lists[row.list]
        if let outer = list.outer, let held = holder(of: outer) { return held }
        var blocking: ListRecord.Row?
        switch list.order {
        case .independent:
            break
        case .forwards:
            // The rows are in order: the first not done before this one, after those known done.
            var at = list.doneFirst
            while at < list.rows.count, list.rows[at].place < row.place {
                if !isDone(list.rows[at]) {
                    blocking = list.rows[at]
                    break
                }
                at += 1
            }
        case .backwards:
            var at = list.rows.count - 1 - list.doneLast
            while at >= 0, list.rows[at].place > row.place {
                if !isDone(list.rows[at]) {
                    blocking = list.rows[at]
                    break
                }
                at -= 1
            }
        case .together:
            blocking = list.rows.first { !isReady($0) }
        }
        return blocking.map { ListRow(list: row.list, place: $0.place) }
    }

    /// The row that holds back a Suspense whose content is ready; nil when it may reveal (or is
    /// no list's boundary).
    func holder(of suspense: SuspenseIndex) -> ListRow? {
        guard let row = suspenses[suspense].row else { return nil }
        return holder(of: row)
    }

    /// The row whose fallbacks a collapsed tail shows: the next one to reveal (nil: none).
    func nextRow(of list: ListIndex) -> RowPlace? {
        let record = lists[list]
        switch record.order {
        case .forwards: return record.rows[record.doneFirst...].first { !isDone($0) }?.place
        case .backwards: return record.rows[..<(record.rows.count - record.doneLast)].last { !isDone($0) }?.place
        case .together, .independent: return nil
        }
    }

    /// Whether a Suspense that has not revealed shows its fallback: always, unless its list's
    /// tail hides it (`hidden`, or `collapsed` for any row but the next one).
    func showsFallback(_ suspense: SuspenseIndex) -> Bool {
        guard let row = suspenses[suspense].row else { return true }
        let list = lists[row.list]
        switch list.order {
        case .together, .independent: return true
        case .forwards, .backwards: break
        }
        switch list.tail {
        case .visible: return true
        case .hidden: return false
        case .collapsed: return nextRow(of: row.list) == row.place
        }
    }

    /// Every boundary of `list` and of the lists nested in it, in document order.
    func boundaries(of list: ListIndex) -> [SuspenseIndex] {
        var found: [SuspenseIndex] = []
        for row in lists[list].rows {
            found += row.boundaries
            for nested in row.lists { found += boundaries(of: nested) }
        }
        return found
    }

    /// The outermost list around `list` (itself when it is no row of another).
    func outermost(_ list: ListIndex) -> ListIndex {
        var index = list
        while let outer = lists[index].outer { index = outer.list }
        return index
    }
}
