/// Resolves a component tree and renders it.
///
/// ```swift
/// print(try await render(Page(), as: .tree))
/// ```
///
/// The root is made inside the render, as a builder child is: a root whose initializer reads data
/// (`render(UserCard(id: 1))`) suspends until it loads, and one whose initializer throws fails
/// the render with a ``RenderError`` naming it.
/// - Parameters:
///   - component: The root of the tree, made inside the render.
///   - format: `.tree`, `.plain` or `.html`.
///   - cache: Where query results are kept; a new one by default, or one shared between renders
///     (which then share the queries they run, too).
///   - options: Settings of the render.
///   - isolation: The caller's actor, on which components are evaluated; inferred, so that
///     components need not be `Sendable`.
/// - Throws: ``RenderError`` for an error no ``ErrorBoundary`` caught, an
///   ``InvalidMarkupError`` at an element among them; `CancellationError` when the task rendering
///   is cancelled.
public func render<C: Component>(
    _ component: @autoclosure @escaping () throws -> C,
    as format: RenderFormat = .html,
    cache: QueryCache = ._perRender(),
    options: RenderOptions = RenderOptions(),
    isolation: isolated (any Actor)? = #isolation
) async throws -> String {
    // Straight from the resolver's tree to the output, never through `Node`. Compact HTML is
    // written into the string itself; other formats let the tree go before their bytes become
    // the string, so that both are not held at once.
    var tree: RenderTree? = try await _Resolver.run(
        component, cache: cache, options: options, mode: .whole(for: format), observers: [])
    if case .html(pretty: false) = format.kind {
        return try HTMLRenderer.renderCompactString(tree!)
    }
    let bytes = try tree!.renderedBytes(as: format)
    tree = nil
    return bytes.string()
}

/// Resolves a component tree and returns it as a ``Node`` tree, for inspection or for rendering
/// with ``Node/rendered(as:)``.
/// - Parameters:
///   - component: The root of the tree, made inside the render.
///   - cache: Where query results are kept; a new one by default.
///   - options: Settings of the render.
///   - isolation: The caller's actor, on which components are evaluated; inferred.
public func resolve<C: Component>(
    _ component: @autoclosure @escaping () throws -> C,
    cache: QueryCache = ._perRender(),
    options: RenderOptions = RenderOptions(),
    isolation: isolated (any Actor)? = #isolation
) async throws -> Node {
    try await _Resolver.run(component, cache: cache, options: options, mode: .wholeTree, observers: []).node()
}

/// Resolves a component tree and returns every state it passed through: first the shell (every
/// component outside a ``Suspense`` resolved, every pending fallback in place), then one frame
/// per query result that changed the tree. The frames of ``liveFrames(_:cache:options:isolation:)``,
/// collected.
///
/// With `options.deliveryOrder == .discovery` the frames are the same on every run for the same
/// query outcomes.
/// - Parameters:
///   - component: The root of the tree, made inside the render.
///   - cache: Where query results are kept; a new one by default.
///   - options: Settings of the render.
///   - isolation: The caller's actor, on which components are evaluated; inferred.
public func resolveFrames<C: Component>(
    _ component: @autoclosure @escaping () throws -> C,
    cache: QueryCache = ._perRender(),
    options: RenderOptions = RenderOptions(deliveryOrder: .discovery),
    isolation: isolated (any Actor)? = #isolation
) async throws -> [RenderFrame] {
    var frames: [RenderFrame] = []
    for try await frame in liveFrames(try component(), cache: cache, options: options) {
        frames.append(frame)
    }
    // A cancelled caller ends the sequence early: that is not a complete list.
    try Task.checkCancellation()
    return frames
}
