/// The observer behind ``renderStream(_:cache:options:stream:isolation:)`` (a render in the
/// `.stream(order)` mode): turns render events into HTML chunks and hands them to the stream.
///
/// Out of order: the shell, each boundary between markers; then, for each boundary event whose
/// region the page holds, a chunk with the region's new content in a `<template>` and a script
/// call right after it that swaps it in between the markers (the function defined once, in the
/// first chunk that needs it), or a `<template for>` (declarative), followed, with
/// `.declarativeWithScript`, by a call that applies it where the browser did not. A boundary where no marker
/// can stand is written again with its whole held element (``StreamMarkup``). The regions the
/// page holds are kept as a tree, so that replacing one forgets exactly those inside it: the
/// stream's work is linear in what it writes. In order (``InOrderWriter``): the document up to the
/// first place that may still change, then more of it as boundaries settle.
final class StreamChunker: RenderObserver {
    private let options: StreamOptions
    private let channel: RenderChannel<String>
    private let shell: ShellSignal
    private var markup: StreamMarkup
    /// The boundaries whose region the page holds (written in a sent chunk, and not replaced
    /// since), between markers of their own or inside a held element.
    private var regions: [BoundaryID: Region] = [:]
    /// Boundaries written in chunks since the last query result: their state is current.
    private var fresh: Set<BoundaryID> = []
    /// What a swap chunk writes around new content.
    private var swapMarkup: SwapMarkup
    /// Held back to the very end: `</body></html>` of a whole document.
    private var tail: [UInt8] = []
    /// In order: where the document stopped, and what closes what is open there.
    private var inOrder = InOrderWriter(holdsDocumentEnd: true)
    private var inOrderStarted = false
    /// In order: whether a boundary event of this pass named the boundary the document stopped
    /// at, or one inside it (only then can the document go on).
    private var inOrderDirty = true
    private var ended = false
    /// The head the shell declared; what later chunks reveal is reported.
    private var declarations: StreamDeclarations
    /// In order: the refresh of a redirect revealed after the shell, waiting for the document
    /// to be outside every element where it cannot stand (see `sendDocument`).
    private var refresh: [UInt8] = []
    /// Out of order: the chunks of rows a SuspenseList reveals together, sent as one when the
    /// pass ends (nil when not gathering).
    private var batch: [UInt8]?

    /// A boundary whose region the page holds.
    private struct Region {
        /// The region around it, or nil at the top of the shell.
        var parent: BoundaryID?
        /// The regions written directly inside it; replacing it removes them (and theirs).
        var children: [BoundaryID] = []
        /// A Suspense showing its fallback.
        var pending: Bool
        /// The element that holds it, when no marker can stand where it is.
        var held: HeldElement?
    }

    /// An element the page holds between markers of its own (``StreamMarkup``), with where each
    /// boundary inside it lies in its bytes, so that it can be written again when one changes.
    private final class HeldElement {
        let key: String
        var bytes: [UInt8]
        /// The boundaries inside, in document order, and their bytes.
        var order: [BoundaryID] = []
        var ranges: [BoundaryID: Range<Int>] = [:]

        init(key: String, bytes: [UInt8]) {
            self.key = key
            self.bytes = bytes
        }
    }

    /// How many bytes of chunks wait to be read before the render waits for its reader.
    static let bufferLimit = 64 * 1024

    init(options: StreamOptions, channel: RenderChannel<String>, shell: ShellSignal) {
        self.options = options
        self.channel = channel
        self.shell = shell
        declarations = StreamDeclarations(report: options.onDeclaredAfterShell)
        swapMarkup = SwapMarkup(swap: options.swap, nonce: options.nonce)
        markup = StreamMarkup(markers: options.order == .outOfOrder, holdsDocumentEnd: true, swap: options.swap)
    }

    func observe(_ event: RenderEvent) {
        guard !ended else { return }
        do {
            try handle(event.kind)
        } catch {
            fail(error)
        }
    }

    var needsPassTree: Bool { options.order == .outOfOrder || inOrderDirty }

    var passTreeResume: RenderTree.Resume? { inOrder.resume }

    private func handle(_ event: RenderEvent.Kind) throws {
        if options.order == .inOrder { noteInOrderChange(event) }
        switch event {
        case .revealedTogether where options.order == .outOfOrder:
            batch = []
        case .progress, .finished:
            if let gathered = batch {
                batch = nil
                if !gathered.isEmpty { send(gathered) }
            }
        default:
            break
        }
        switch (options.order, event) {
        case (_, .queryFinished), (_, .queryFailed):
            fresh = []
        case (.outOfOrder, .shell(let tree?, let pending, let declared)):
            markup.markers = !pending.isEmpty
            let output = try markup.render(tree, from: 0, to: tree.entries.count)
            add(output, in: nil)
            tail = output.tail
            var html = output.html
            if let first = output.boundaries.first, opensPage(output, tree: tree, first: first) {
                // The parser puts what precedes `<html>` (a marker at the very start) in the
                // document itself, outside the body that gets the region's content: opening the
                // body first, as the parser would, keeps markers and content together.
                html = Array("<body>".utf8) + html
            }
            if pending.isEmpty {
                html += tail
                tail = []
            }
            shell.succeed(declarations.shell(declared))
            send(html)
        case (.inOrder, .shell(let tree?, _, let declared)):
            try sendDocument(tree, whole: false, head: declarations.shell(declared))
        case (.inOrder, .progress(let tree?, settled: true)):
            try sendDocument(tree, whole: false)
        case (.outOfOrder, .resolved(let id, let tree?)), (.outOfOrder, .suspended(let id, let tree?)),
            (.outOfOrder, .caught(let id, let tree?, _)):
            guard regions[id] != nil, !fresh.contains(id) else { return }
            try swap(id, with: tree)
        case (.outOfOrder, .updated):
            // Only a region outside every boundary changes this way, which the page cannot
            // replace; after the shell it cannot happen (nothing outside a Suspense waits then).
            throw StreamError.regionOutsideBoundariesChanged
        case (.outOfOrder, .finished):
            ended = true
            var last: [UInt8] = []
            if markup.markers && options.swap == .script {
                last = scriptOpening + Self.cleanupScript.utf8 + "</script>".utf8
            }
            last += tail
            if !last.isEmpty { send(last) }
        case (.inOrder, .finished(let tree)):
            try sendDocument(tree, whole: true)
            ended = true
        default:
            break
        }
    }

    /// Whether the shell begins with a marker, outside any element: true unless what the
    /// boundaries at the start hold first is the document's `<html>` element (whose parsing
    /// puts things in place itself).
    private func opensPage(_ output: StreamMarkup.Output, tree: RenderTree, first: StreamMarkup.Boundary) -> Bool {
        let marker = first.held.map { output.held[$0.element!].key } ?? first.id.description
        guard output.html.starts(with: markup.start(marker)) else { return false }
        let content = tree.entries.first {
            switch $0.kind {
            case .suspense, .errorBoundary, .fragment, .component, .declaration: return false
            case .text, .rawHTML, .element: return true
            }
        }
        guard let content, content.kind == .element else { return true }
        return !HTMLNames.sameName(tree.names[content.a], "html")
    }

    /// Records the boundaries a rendering wrote, inside the region of `parent` (nil: the shell).
    /// `element`: the held element that holds the rendering (a held boundary's new content).
    private func add(_ output: StreamMarkup.Output, in parent: BoundaryID?, element: HeldElement? = nil) {
        let elements = output.held.map { HeldElement(key: $0.key, bytes: $0.bytes) }
        for boundary in output.boundaries {
            let around = boundary.parent.map { output.boundaries[$0].id } ?? parent
            var holder = element
            if let held = boundary.held {
                if let index = held.element { holder = elements[index] }
                if let holder, held.element != nil {
                    holder.order.append(boundary.id)
                    holder.ranges[boundary.id] = held.range
                }
            }
            regions[boundary.id] = Region(parent: around, pending: boundary.pending, held: holder)
            if let around { regions[around]?.children.append(boundary.id) }
            // Written after a query result: what it shows is current until the next one.
            if parent != nil { fresh.insert(boundary.id) }
        }
    }

    /// Forgets the regions inside `id`'s (its content is being replaced), in time linear in
    /// their number.
    private func removeRegions(inside id: BoundaryID) {
        guard var stack = regions[id]?.children else { return }
        regions[id]?.children = []
        while let child = stack.popLast() {
            if let region = regions.removeValue(forKey: child) { stack += region.children }
        }
    }

    /// A chunk that replaces the region of `id` with what `tree` (the boundary's subtree) shows.
    private func swap(_ id: BoundaryID, with tree: RenderTree) throws {
        let pending = StreamMarkup.isPending(tree.entries[0], in: tree)
        // A redirect revealed now: its refresh goes first in the chunk, in the page itself, so
        // that it works however (and whether) the region is swapped.
        let refresh = declarations.reveal(tree, in: 1..<tree.entries.count)
        if let element = regions[id]?.held {
            let output = try markup.render(tree, from: 1, to: tree.entries.count, heldContent: true)
            replace(id, in: element, with: output, pending: pending)
            send(refresh + replacement(of: element.key, with: element.bytes))
            return
        }
        // The chunk is written around the content in one buffer: no copy of a large region.
        let (opening, closing) = replacementParts(of: id.description)
        if StreamMarkup.isUnmarked(tree) {
            // Nothing to mark: the compact renderer's two passes, straight into the chunk.
            let chunk = try HTMLRenderer.renderCompactString(tree, after: refresh + opening, before: closing)
            removeRegions(inside: id)
            regions[id]?.pending = pending
            fresh.insert(id)
            if batch != nil {
                send(Array(chunk.utf8))
            } else {
                channel.send(chunk, cost: chunk.utf8.count)
            }
            return
        }
        var output = try markup.render(tree, from: 1, to: tree.entries.count, prefix: refresh + opening)
        removeRegions(inside: id)
        regions[id]?.pending = pending
        add(output, in: id)
        fresh.insert(id)
        output.html += closing
        send(output.html)
    }

    /// Replaces the bytes of held boundary `id` in `element` with `output` (rendered as held
    /// content), moving the boundaries after it.
    private func replace(_ id: BoundaryID, in element: HeldElement, with output: StreamMarkup.Output, pending: Bool) {
        guard let old = element.ranges[id], let position = element.order.firstIndex(of: id) else { return }
        var ancestors: Set<BoundaryID> = []
        var up = regions[id]?.parent
        while let ancestor = up, regions[ancestor]?.held === element {
            ancestors.insert(ancestor)
            up = regions[ancestor]?.parent
        }
        removeRegions(inside: id)
        var after = position + 1
        while after < element.order.count, regions[element.order[after]] == nil {
            element.ranges[element.order[after]] = nil
            after += 1
        }
        element.bytes.replaceSubrange(old, with: output.html)
        let delta = output.html.count - old.count
        for index in element.order.indices where index != position && (index < position || index >= after) {
            let other = element.order[index]
            guard let range = element.ranges[other] else { continue }
            if index > position {
                element.ranges[other] = (range.lowerBound + delta)..<(range.upperBound + delta)
            } else if ancestors.contains(other) {
                element.ranges[other] = range.lowerBound..<(range.upperBound + delta)
            }
        }
        element.ranges[id] = old.lowerBound..<(old.lowerBound + output.html.count)
        let inner = output.boundaries.map(\.id)
        for (boundary, written) in zip(inner, output.boundaries) {
            let range = written.held!.range
            element.ranges[boundary] = (range.lowerBound + old.lowerBound)..<(range.upperBound + old.lowerBound)
        }
        element.order.replaceSubrange((position + 1)..<after, with: inner)
        regions[id]?.pending = pending
        add(output, in: id, element: element)
        fresh.insert(id)
    }

    /// The chunk that puts `html` in place of the region named `key`.
    private func replacement(of key: String, with html: [UInt8]) -> [UInt8] {
        let (opening, closing) = replacementParts(of: key)
        return opening + html + closing
    }

    /// What comes before and after the new content of the region named `key` in its chunk.
    private func replacementParts(of key: String) -> (opening: [UInt8], closing: [UInt8]) {
        swapMarkup.parts(of: key, markup: markup)
    }

    /// After a late error: a chunk that puts the application's page in place of each outermost
    /// region still showing a fallback.
    private func lateErrorChunk(_ error: any Error) -> [UInt8] {
        let page = Array(options.lateErrorHTML(error).utf8)
        var chunk: [UInt8] = []
        var elements: [ObjectIdentifier: HeldElement] = [:]
        var order: [HeldElement] = []
        let pending = regions.filter { entry in
            guard entry.value.pending else { return false }
            var up = entry.value.parent
            while let parent = up, let region = regions[parent] {
                if region.pending { return false }
                up = region.parent
            }
            return true
        }
        for (id, region) in pending.sorted(by: { $0.key.positions.lexicographicallyPrecedes($1.key.positions) }) {
            if let element = region.held {
                // Each element is written once, after all its replacements.
                var output = StreamMarkup.Output()
                output.html = page
                replace(id, in: element, with: output, pending: false)
                if elements.updateValue(element, forKey: ObjectIdentifier(element)) == nil { order.append(element) }
            } else {
                chunk += replacement(of: id.description, with: page)
            }
        }
        for element in order { chunk += replacement(of: element.key, with: element.bytes) }
        return chunk
    }

    /// In order: notes whether `event` may let the document go on past where it stopped.
    private func noteInOrderChange(_ event: RenderEvent.Kind) {
        switch event {
        case .resolved(let id, _), .suspended(let id, _), .waiting(let id, _), .caught(let id, _, _):
            if let held = inOrder.heldBoundary, id != held && !id.isInside(held) { return }
            inOrderDirty = true
        case .updated:
            inOrderDirty = true
        case .progress(let tree, let settled):
            // The document goes on from this tree (below): the changes before it are read.
            if tree != nil && settled { inOrderDirty = false }
        default:
            break
        }
    }

    /// In order: sends the document from where it stopped as far as it is settled (all of it
    /// when `whole`). The first call sends the shell, even empty, with its `head`. A redirect
    /// written after the shell adds its refresh at the end of the chunk, or of the first later
    /// one that ends outside every element where a `<meta>` cannot stand (`title`, `textarea`,
    /// a table…), at the latest before the held document end.
    private func sendDocument(_ tree: RenderTree, whole: Bool, head: ResponseHead? = nil) throws {
        var new = try inOrder.advance(tree, whole: whole)
        if inOrderStarted {
            let revealed = declarations.reveal(tree, in: inOrder.lastWritten)
            if !revealed.isEmpty { refresh = revealed }
            if !refresh.isEmpty, inOrder.isComplete || !inOrder.isInsideUnmarkable {
                if inOrder.isComplete {
                    new.insert(contentsOf: refresh, at: new.count - inOrder.tailCount)
                } else {
                    new += refresh
                }
                refresh = []
            }
        }
        if !new.isEmpty || !inOrderStarted { send(new) }
        if !inOrderStarted {
            inOrderStarted = true
            shell.succeed(head ?? ResponseHead())
        }
    }

    /// The render returned, every query of it stopped: the stream ends.
    func complete() {
        channel.finish()
    }

    /// The render failed: before the shell, `renderStream` throws; after it, the page is closed
    /// so that what was sent still reads as one, and the stream ends by throwing.
    func fail(_ error: any Error) {
        guard !ended else { return }
        ended = true
        if shell.fail(error) { return }
        switch options.order {
        case .outOfOrder:
            var last = lateErrorChunk(error)
            if markup.markers && options.swap == .script && !last.isEmpty {
                last += scriptOpening + Self.cleanupScript.utf8 + "</script>".utf8
            }
            last += tail
            if !last.isEmpty { send(last) }
        case .inOrder:
            let unclosed = inOrder.unclosed
            if !unclosed.isEmpty { send(unclosed) }
        }
        channel.finish(throwing: error)
    }

    /// `<script>`, with the nonce if there is one.
    private var scriptOpening: [UInt8] { swapMarkup.scriptOpening }

    private func send(_ bytes: [UInt8]) {
        if batch != nil {
            batch! += bytes
            return
        }
        channel.send(String(decoding: bytes, as: UTF8.self), cost: bytes.count)
    }
}
