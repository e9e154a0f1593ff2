/// Resolves a component tree and renders it with what its visible tree declared about the HTTP
/// response: ``render(_:as:cache:options:isolation:)`` for a server that sends the page whole.
///
/// ```swift
/// let page = try await renderResponse(ProductPage(id: id))
/// response.status = page.head.status?.code ?? 200
/// ```
///
/// Declarations inside a ``Suspense`` showing its fallback (after ``RenderOptions/deadline``)
/// or inside an ``ErrorBoundary`` that caught are not counted: see ``ResponseHead``.
/// - Parameters:
///   - component: The root of the tree, made inside the render.
///   - format: `.html` (default), `.tree` or `.plain`.
///   - cache: Where query results are kept; a new one by default.
///   - options: Settings of the render.
///   - isolation: The caller's actor, on which components are evaluated; inferred.
/// - Throws: What ``render(_:as:cache:options:isolation:)`` throws.
public func renderResponse<C: Component>(
    _ component: @autoclosure @escaping () throws -> C,
    as format: RenderFormat = .html,
    cache: QueryCache = ._perRender(),
    options: RenderOptions = RenderOptions(),
    isolation: isolated (any Actor)? = #isolation
) async throws -> RenderedResponse {
    let tree = try await _Resolver.run(
        component, cache: cache, options: options, mode: .whole(for: format), observers: [])
    let body: String
    if case .html(pretty: false) = format.kind {
        body = try HTMLRenderer.renderCompactString(tree)
    } else {
        body = try tree.renderedBytes(as: format).string()
    }
    return RenderedResponse(head: tree.responseHead, body: body)
}

/// A page rendered whole, with what it declared about its response
/// (``renderResponse(_:as:cache:options:isolation:)``).
public struct RenderedResponse: Sendable, Hashable {
    /// The status, headers and redirect the visible tree declared.
    public var head: ResponseHead
    /// The page, in the format asked for.
    public var body: String
}

extension Node {
    /// What this resolved tree declared about its response: its visible
    /// ``Kind/responseDeclaration(_:)`` nodes, added up as ``ResponseHead`` says.
    public var responseHead: ResponseHead {
        RenderTree(self).responseHead
    }
}
