/// What a component declares about the HTTP response that carries the page: made by
/// ``Component/httpStatus(_:)``, ``Component/responseHeader(_:_:)`` and
/// ``Component/redirect(to:status:)``.
///
/// A declaration is a node of the tree that shows nothing: like any node, it counts only while it
/// is visible. One inside a ``Suspense`` that shows its fallback, or inside an ``ErrorBoundary``
/// that caught, is not declared; ``ResponseHead`` says what the visible ones add up to.
public enum ResponseDeclaration: Sendable, Hashable {
    /// The response's status.
    case status(HTTPStatus)
    /// A header field, its name as written.
    case header(name: String, value: String)
    /// A redirect to `location` with a 3xx `status`.
    case redirect(location: String, status: HTTPStatus)
}
