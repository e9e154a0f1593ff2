/// Resolves a component tree and streams it as HTML: returns once the shell is ready (everything
/// outside a ``Suspense`` resolved), and throws there, before any byte exists, when an error
/// escapes every ``ErrorBoundary`` in the shell, so that a server can still choose its status.
///
/// ```swift
/// for try await chunk in try await renderStream(Page()) {
///     try await response.write(chunk)
/// }
/// ```
///
/// The first chunk is the shell, each pending boundary's fallback in place between markers
/// (`<!--sk:0.1-->` … `<!--/sk:0.1-->`, named by ``BoundaryID``). Then, with the default
/// `.outOfOrder` order, one chunk per boundary as it resolves, in completion order: its content
/// in a hidden `<template>` and a small inline script right after it that swaps it in (the
/// script is defined once, in the first chunk that needs it), or with `StreamOptions(swap:
/// .declarative)` a `<template for>` that the browser applies itself. A boundary that fails after the shell streams the
/// nearest ErrorBoundary's fallback the same way, over that ErrorBoundary's whole region. Nested
/// boundaries inside streamed content stream in later on their own. When the root is a whole
/// document (`<html>`), `</body></html>` comes last. Without scripts, the page shows every
/// fallback; `.inOrder` writes the document top to bottom with no script at all.
///
/// The stream's ``RenderSequence/responseHead`` holds what the shell declared about the response
/// (``Component/httpStatus(_:)``, ``Component/responseHeader(_:_:)``,
/// ``Component/redirect(to:status:)``): send it before the first chunk. What is revealed later
/// cannot change it: it goes to ``StreamOptions/onDeclaredAfterShell``.
///
/// An error after the shell that no boundary catches ends the sequence by throwing, after a
/// chunk that puts ``StreamOptions/lateErrorHTML`` in place of every pending fallback and closes
/// the page. A consumer that stops iterating cancels the render and its
/// queries.
/// - Parameters:
///   - component: The root of the tree, made inside the render (see
///     ``render(_:as:cache:options:isolation:)``).
///   - cache: Where query results are kept; a new one by default.
///   - options: Settings of the render, such as a deadline or its clock, as for
///     ``render(_:as:cache:options:isolation:)``.
///   - stream: Settings of the stream: its order, how it swaps, a CSP nonce, the late-error page.
///   - isolation: The caller's actor, on which components are evaluated; inferred.
/// - Throws: ``RenderError`` for an error no ``ErrorBoundary`` caught in the shell;
///   `CancellationError` when the calling task is cancelled before the shell; ``InvalidMarkupError``.
public func renderStream<C: Component>(
    _ component: @autoclosure @escaping () throws -> C,
    cache: QueryCache = ._perRender(),
    options: RenderOptions = RenderOptions(),
    stream: StreamOptions = StreamOptions(),
    isolation: isolated (any Actor)? = #isolation
) async throws -> HTMLStream {
    let shell = ShellSignal()
    var sequence = HTMLStream(limit: StreamChunker.bufferLimit) { channel in
        Task {
            // Captured, so that the render runs on the caller's actor, as `render` does.
            _ = isolation
            let chunker = StreamChunker(options: stream, channel: channel, shell: shell)
            do {
                _ = try await _Resolver.run(
                    component, cache: cache, options: options, mode: .stream(stream.order), observers: [chunker],
                    backpressure: channel)
                chunker.complete()
            } catch {
                chunker.fail(error)
            }
        }
    }
    let core = sequence.core
    sequence.head = try await withTaskCancellationHandler {
        try await shell.wait()
    } onCancel: {
        core.stop()
    }
    return sequence
}

/// The chunks of a streamed render (``renderStream(_:cache:options:stream:isolation:)``), each a
/// piece of HTML to send as it comes. Iterate it once; stopping early cancels the render. At most
/// 64 KiB of chunks (plus what one query's result adds) wait to be read: a reader that falls
/// behind holds the render, so a stalled client costs no more memory than that.
public typealias HTMLStream = RenderSequence<String>
