/// The observer behind ``renderStream(_:cache:options:stream:isolation:)`` (a render in the
/// `.stream(order)` mode): turns render events into HTML chunks and hands them to the stream.
///
/// Out of order: the shell, each boundary between markers; then, for each boundary event whose
/// region the page holds, a chunk with the region's new content in a `<template>` and a script
/// call that swaps it in between the markers (the function defined once, in the first chunk that
/// needs it). In order: the document up to the first place that may still change, then more of
/// it as boundaries settle.
final class StreamChunker: RenderObserver {
    private let options: StreamOptions
    private let channel: RenderChannel<String>
    private let shell: ShellSignal
    private var markup: StreamMarkup
    /// The boundaries whose region the page holds (written between markers in a sent chunk, and
    /// not replaced since).
    private var present: Set<BoundaryID> = []
    /// Boundaries written in chunks since the last query result: their state is current.
    private var fresh: Set<BoundaryID> = []
    private var definedSwap = false
    /// Held back to the very end: `</body></html>` of a whole document.
    private var tail: [UInt8] = []
    /// In order: how many bytes of the document were sent, and what closes what is open there.
    private var sentCount = 0
    private var unclosed: [UInt8] = []
    private var ended = false

    /// How many bytes of chunks wait to be read before the render waits for its reader.
    static let bufferLimit = 64 * 1024

    init(options: StreamOptions, channel: RenderChannel<String>, shell: ShellSignal) {
        self.options = options
        self.channel = channel
        self.shell = shell
        markup = StreamMarkup(markers: options.order == .outOfOrder, holdsDocumentEnd: true)
    }

    func observe(_ event: RenderEvent) {
        guard !ended else { return }
        do {
            try handle(event.kind)
        } catch {
            fail(error)
        }
    }

    private func handle(_ event: RenderEvent.Kind) throws {
        switch (options.order, event) {
        case (_, .queryFinished), (_, .queryFailed):
            fresh = []
        case (.outOfOrder, .shell(let tree?, let pending)):
            markup.markers = !pending.isEmpty
            let output = try markup.render(tree, from: 0, to: tree.entries.count)
            present = Set(output.boundaries)
            tail = output.tail
            var html = output.html
            if pending.isEmpty {
                html += tail
                tail = []
            }
            shell.succeed()
            send(html)
        case (.inOrder, .shell(let tree?, _)), (.inOrder, .progress(let tree?, settled: true)):
            let first = sentCount == 0
            try sendDocument(tree, whole: false)
            if first { shell.succeed() }
        case (.outOfOrder, .resolved(let id, let tree?)), (.outOfOrder, .suspended(let id, let tree?)),
            (.outOfOrder, .caught(let id, let tree?, _)):
            guard present.contains(id), !fresh.contains(id) else { return }
            try swap(id, with: tree)
        case (.outOfOrder, .updated):
            // Only a region outside every boundary changes this way, which the page cannot
            // replace; after the shell it cannot happen (nothing outside a Suspense waits then).
            throw StreamError.regionOutsideBoundariesChanged
        case (.outOfOrder, .finished):
            ended = true
            var last: [UInt8] = []
            if markup.markers {
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

    /// A chunk that replaces the region of `id` with what `tree` (the boundary's subtree) shows.
    private func swap(_ id: BoundaryID, with tree: RenderTree) throws {
        let output = try markup.render(tree, from: 1, to: tree.entries.count)
        present = present.filter { !$0.isInside(id) }
        present.formUnion(output.boundaries)
        fresh.formUnion(output.boundaries)
        fresh.insert(id)
        var chunk = Array("<template id=\"sk:\(id)\">".utf8)
        chunk += output.html
        chunk += "</template>".utf8
        chunk += scriptOpening
        if !definedSwap {
            definedSwap = true
            chunk += Self.swapFunction.utf8
        }
        chunk += "$sk(\"\(id)\")</script>".utf8
        send(chunk)
    }

    /// In order: sends the document as far as it is settled (all of it when `whole`).
    private func sendDocument(_ tree: RenderTree, whole: Bool) throws {
        let stop = whole ? nil : StreamMarkup.firstUnsettled(in: tree)
        let output = try markup.render(tree, from: 0, to: tree.entries.count, stop: stop)
        var html = output.html
        if stop == nil { html += output.tail }
        unclosed = output.unclosed
        // What was sent before can no longer change: the new document extends it.
        guard html.count >= sentCount else { throw StreamError.sentPrefixChanged }
        let new = Array(html[sentCount...])
        sentCount = html.count
        if !new.isEmpty || sentCount == 0 { send(new) }
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
        case .outOfOrder: if !tail.isEmpty { send(tail) }
        case .inOrder: if !unclosed.isEmpty { send(unclosed) }
        }
        channel.finish(throwing: error)
    }

    /// `<script>`, with the nonce if there is one.
    private var scriptOpening: [UInt8] {
        var opening = Array("<script".utf8)
        if let nonce = options.nonce {
            opening += " nonce=\"".utf8
            HTMLEscaping.appendAttribute(nonce, to: &opening)
            opening += "\"".utf8
        }
        return opening + ">".utf8
    }

    private func send(_ bytes: [UInt8]) {
        channel.send(String(decoding: bytes, as: UTF8.self), cost: bytes.count)
    }

    /// Replaces the nodes between the markers of boundary `i` with the content of the template
    /// `sk:i`, keeping the markers for a later replacement; removes the template.
    static let swapFunction =
        "function $sk(i){var d=document,t=d.getElementById(\"sk:\"+i),w=d.createTreeWalker(d,128),s,n,e;"
        + "if(!t)return;while(n=w.nextNode())if(n.data==\"sk:\"+i){s=n;break}"
        + "if(s){e=s.nextSibling;while(e&&!(e.nodeType==8&&e.data==\"/sk:\"+i)){n=e.nextSibling;e.remove();e=n}"
        + "s.parentNode.insertBefore(t.content,e)}t.remove();d.currentScript.remove()}"

    /// Removes every marker (the page is final) and itself.
    static let cleanupScript =
        "(function(d){var w=d.createTreeWalker(d,128),n,r=[];while(n=w.nextNode())if(/^\\/?sk:/.test(n.data))r.push(n);"
        + "r.forEach(function(c){c.remove()});d.currentScript.remove()})(document)"
}

/// Errors of the stream itself, which mean a defect in SuspenseKit rather than in the page.
enum StreamError: Error, CustomStringConvertible {
    case regionOutsideBoundariesChanged
    case sentPrefixChanged

    var description: String {
        switch self {
        case .regionOutsideBoundariesChanged:
            return "a region outside every boundary changed after the shell was sent (a SuspenseKit defect)"
        case .sentPrefixChanged:
            return "in-order streaming: a part of the document already sent changed (a SuspenseKit defect)"
        }
    }
}

/// The one-time handoff of the shell from the render's task to `renderStream`'s caller.
final class ShellSignal: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Void, any Error>?)
        case done(Result<Void, any Error>)
    }

    private let state = Locked(State.waiting(nil))

    func succeed() { _ = settle(.success(())) }

    /// Fails the shell; false when the shell was ready already.
    func fail(_ error: any Error) -> Bool { settle(.failure(error)) }

    private func settle(_ result: Result<Void, any Error>) -> Bool {
        let waiter: CheckedContinuation<Void, any Error>?? = state.withLock { state in
            guard case .waiting(let waiter) = state else { return .none }
            state = .done(result)
            return .some(waiter)
        }
        guard case .some(let continuation) = waiter else { return false }
        continuation?.resume(with: result)
        return true
    }

    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let result: Result<Void, any Error>? = state.withLock { state in
                switch state {
                case .waiting:
                    state = .waiting(continuation)
                    return nil
                case .done(let result):
                    return result
                }
            }
            if let result { continuation.resume(with: result) }
        }
    }
}
