/// Resolves a component tree and gives every state it passes through while it resolves: the
/// shell first (every pending fallback in place), then a frame after each query result that
/// changed the tree, each as soon as it exists. Render a frame in any format with
/// ``RenderFrame/rendered(as:)``; ``LiveTerminal`` draws them in a terminal.
///
/// ```swift
/// for try await frame in liveFrames(Page()) {
///     print(try frame.rendered(as: .plain))
/// }
/// ```
///
/// The render starts at once and runs while the frames are read; a consumer that stops reading
/// cancels it and its queries, and one that falls behind holds it (see ``RenderSequence``). An error no ``ErrorBoundary`` catches ends the sequence by
/// throwing ``RenderError``.
/// - Parameters:
///   - component: The root of the tree, made inside the render (see
///     ``render(_:as:cache:options:isolation:)``).
///   - cache: Where query results are kept; a new one by default.
///   - options: Settings of the render (`.discovery` delivery makes the frames the same on
///     every run for the same outcomes).
///   - isolation: The caller's actor, on which components are evaluated; inferred.
public func liveFrames<C: Component>(
    _ component: @autoclosure @escaping () throws -> C,
    cache: QueryCache = ._perRender(),
    options: RenderOptions = RenderOptions(),
    isolation: isolated (any Actor)? = #isolation
) -> LiveFrames {
    LiveFrames(limit: 16) { channel in
        Task {
            // Captured, so that the render runs on the caller's actor, as `render` does.
            _ = isolation
            let recorder = FrameRecorder { channel.send($0, cost: 1) }
            do {
                _ = try await _Resolver.run(
                    component, cache: cache, options: options, mode: .frames, observers: [recorder],
                    backpressure: channel)
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
    }
}

/// The frames of a render as it runs (``liveFrames(_:cache:options:isolation:)``). Iterate it
/// once; stopping early cancels the render; a reader that falls behind holds the render once 16
/// frames wait to be read.
public typealias LiveFrames = RenderSequence<RenderFrame>

extension RenderFrame {
    /// The frame's tree rendered as `.tree`, `.plain` or `.html`.
    public func rendered(as format: RenderFormat) throws -> String {
        try node.rendered(as: format)
    }

    /// The queries that the fallbacks shown in this frame wait on, in document order, each once.
    public var pendingQueries: [String] {
        var seen = Set<String>()
        var queries: [String] = []
        var stack = [node]
        while let node = stack.popLast() {
            if case .suspense(.pending(let keys)) = node.kind {
                for key in keys where seen.insert(key).inserted { queries.append(key) }
            }
            stack.append(contentsOf: node.children.reversed())
        }
        return queries
    }
}
