/// SuspenseList: its record, its rows' boundaries, and the holds it puts on them (see
/// Records+Lists). A hold lives in the model, as fallback timing's does: `settle` leaves a held
/// boundary showing its fallback, and every change that may release one (a boundary of the list
/// revealed, or discarded) touches the list's boundaries again, so that they reveal in the same
/// pass, in order. Every output reads the same records, so every output agrees.
extension _Resolver {
    /// Resolves a SuspenseList: records it (as a row of the list around it, if any) and
    /// evaluates its rows with it as their list.
    @usableFromInline
    func resolveList(order: RevealOrder, tail: RevealTail, content: (_Resolver) throws -> Void) throws {
        let link = positions.link()
        let index = records.lists.count
        let outer = context.list >= 0 ? records.row(at: link, in: context.list) : nil
        records.lists.append(
            ListRecord(order: order, tail: tail, depth: link?.depth ?? 0, outer: outer, scope: context.scope))
        if let outer {
            let row = records.lists[outer.list].row(outer.place)
            records.lists[outer.list].rows[row].lists.append(index)
            forgetDone(from: outer.list)
        }
        let saved = context.list
        context.list = index
        defer { context.list = saved }
        try content(self)
    }

    /// A `ForEach` or a `for` loop begins its elements: written as a child of a list, each
    /// element is a row of its own.
    @usableFromInline
    func spreadRows() {
        guard context.list >= 0, let link = positions.link(),
            link.depth == records.lists[context.list].depth + 1
        else { return }
        records.lists[context.list].spreads.insert(link.index)
    }

    /// Makes the Suspense just recorded at `index` a boundary of its row, when it stands in a
    /// list's row.
    func joinRow(_ index: SuspenseIndex) {
        guard context.list >= 0, let row = records.row(at: records.suspenses[index].id.link, in: context.list) else {
            return
        }
        records.suspenses[index].row = row
        let at = records.lists[row.list].row(row.place)
        records.lists[row.list].rows[at].boundaries.append(index)
        forgetDone(from: row.list)
        if records.lists[row.list].tail == .collapsed {
            records.lists[row.list].shownRow = records.nextRow(of: row.list)
        }
    }

    /// A row's boundary whose content is ready as it is evaluated: it shows its fallback until
    /// the pass settles, which reveals it if its list lets it (every row of the list is known by
    /// then).
    func holdRow(_ index: SuspenseIndex) throws {
        try evaluateFallback(of: index)
        settling.touched.append(index)
    }

    /// A boundary of `list` may reveal: reveals, in document order, every boundary of the
    /// outermost list around it that may, until none is left that may (a row revealing lets the
    /// next one reveal, in the same pass). Rows revealed together are reported as one step.
    func revealRows(of list: ListIndex) {
        let top = records.outermost(list)
        // In the order rows reveal, so that one sweep reveals a whole run of them (a list nested
        // in another order may take a few).
        var boundaries = records.boundaries(of: top)
        if records.lists[top].order == .backwards { boundaries.reverse() }
        var revealedAny = false
        var revealed = true
        while revealed {
            revealed = false
            for index in boundaries
            where !records.suspenses[index].isResolved && records.suspenses[index].pendingCount == 0
                && mayResolve(index)
            {
                resolve(index)
                revealed = true
                revealedAny = true
                guard let row = records.suspenses[index].row else { continue }
                if revealsTogether(row.list) { changeLog.noteTogether() }
                noteDone(from: row.list)
            }
        }
        if revealedAny { listChanged(top) }
    }

    /// Counts the rows now done at each end of `list` and of the lists around it (see
    /// `ListRecord.doneFirst`).
    func noteDone(from list: ListIndex) {
        var index: ListIndex? = list
        while let current = index {
            let rows = records.lists[current].rows
            var first = records.lists[current].doneFirst
            while first < rows.count, records.isDone(rows[first]) { first += 1 }
            var last = records.lists[current].doneLast
            while last < rows.count - first, records.isDone(rows[rows.count - 1 - last]) { last += 1 }
            records.lists[current].doneFirst = first
            records.lists[current].doneLast = last
            index = records.lists[current].outer?.list
        }
    }

    /// A row of `list` is no longer done: no row of it or of the lists around it is known done.
    func forgetDone(from list: ListIndex) {
        var index: ListIndex? = list
        while let current = index {
            records.lists[current].forgetDone()
            index = records.lists[current].outer?.list
        }
    }

    /// Whether `list`, or a list around it, reveals its rows together.
    private func revealsTogether(_ list: ListIndex) -> Bool {
        var index: ListIndex? = list
        while let current = index {
            if records.lists[current].order == .together { return true }
            index = records.lists[current].outer?.list
        }
        return false
    }

    /// A boundary of `list` (or of a list around or inside it) revealed or was discarded: the
    /// boundaries it may have held (those whose content is ready) try to reveal, and report
    /// their state again (the row they wait for may have changed); a collapsed tail shows its
    /// next row's fallback. Boundaries still pending are touched when their content settles.
    func listChanged(_ list: ListIndex) {
        let top = records.outermost(list)
        let boundaries = records.boundaries(of: top)
        // Settling takes the last first: document order, so that rows reveal in order.
        for index in boundaries.reversed() where !records.isDone(index) && records.isReady(index) {
            settling.touched.append(index)
            noteChange(.progressed(index))
        }
        var lists = [top]
        while let index = lists.popLast() {
            noteDone(from: index)
            for row in records.lists[index].rows { lists += row.lists }
        }
        showNextRows(from: top)
    }

    /// Every list changed: an ErrorBoundary discarded content, which may hold rows of any list.
    func listsChanged() {
        for index in records.lists.indices where records.lists[index].outer == nil && records.isAlive(list: index) {
            listChanged(index)
        }
    }

    /// For each collapsed list in `list` whose next row changed: that row's fallbacks show now.
    private func showNextRows(from list: ListIndex) {
        var stack = [list]
        while let index = stack.popLast() {
            for row in records.lists[index].rows { stack += row.lists }
            guard records.lists[index].tail == .collapsed else { continue }
            let next = records.nextRow(of: index)
            guard next != records.lists[index].shownRow else { continue }
            records.lists[index].shownRow = next
            guard let row = records.lists[index].rows.first(where: { $0.place == next }) else { continue }
            for boundary in row.boundaries where !records.isDone(boundary) {
                noteChange(.suspended(boundary))
            }
        }
    }
}
