extension Component {
    /// Declares the status of the response that carries the page, such as 404 for a product that
    /// does not exist.
    ///
    /// ```swift
    /// if let product {
    ///     ProductDetails(product)
    /// } else {
    ///     NotFound().httpStatus(.notFound)
    /// }
    /// ```
    ///
    /// The declaration is a node of the tree that shows nothing, placed before this component: it
    /// counts only while it is visible (not inside a ``Suspense`` showing its fallback, nor inside
    /// an ``ErrorBoundary`` that caught). What the visible tree declared is a ``ResponseHead``;
    /// a stream's is what its shell declared, since a response's status goes before its first
    /// byte. A status outside 200...599 fails at this component with an
    /// ``InvalidResponseDeclarationError``.
    @inlinable
    public func httpStatus(_ status: HTTPStatus) -> some Component {
        _ResponseDeclarationWriter(content: self, declaration: .status(status))
    }

    /// Declares a header of the response that carries the page, such as `Cache-Control`.
    ///
    /// ```swift
    /// AccountPage().responseHeader("Cache-Control", "private, no-store")
    /// ```
    ///
    /// Counted like ``httpStatus(_:)``: only while visible, and in a stream only in the shell.
    /// A later value for the same name replaces an earlier one, except for fields that may repeat
    /// (see ``ResponseHead``). A name that is not an HTTP token, a value with a line break or
    /// another control character, or a field the server writes itself (`Content-Length`,
    /// `Transfer-Encoding`, `Connection`; `Location`, declared with ``redirect(to:status:)``)
    /// fails at this component with an ``InvalidResponseDeclarationError``.
    @inlinable
    public func responseHeader(_ name: String, _ value: String) -> some Component {
        _ResponseDeclarationWriter(content: self, declaration: .header(name: name, value: value))
    }

    /// Declares that the page redirects to `location`, with a `status` of 303 (See Other) by
    /// default; it beats any declared status.
    ///
    /// ```swift
    /// if session == nil {
    ///     EmptyComponent().redirect(to: "/login")
    /// }
    /// ```
    ///
    /// Counted like ``httpStatus(_:)``. Revealed after a stream's shell, it can no longer change
    /// the response: the stream reports it (``StreamOptions/onDeclaredAfterShell``) and writes a
    /// `<meta http-equiv="refresh">` to `location`, with `<meta name="robots" content="noindex">`,
    /// in the chunk that reveals it. The location is a relative URL or an `http`/`https` one, made
    /// of the characters URLs allow (percent-encode the rest); another location, or a status that
    /// is not 301, 302, 303, 307 or 308, fails at this component with an
    /// ``InvalidResponseDeclarationError``.
    @inlinable
    public func redirect(to location: String, status: HTTPStatus = .seeOther) -> some Component {
        _ResponseDeclarationWriter(content: self, declaration: .redirect(location: location, status: status))
    }
}

/// A component preceded by a response declaration: made by ``Component/httpStatus(_:)``,
/// ``Component/responseHeader(_:_:)`` and ``Component/redirect(to:status:)``; leaves the
/// declaration's node and no name in paths. Not API.
public struct _ResponseDeclarationWriter<Content: Component>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never
    @usableFromInline let content: Content
    @usableFromInline let declaration: ResponseDeclaration

    @inlinable
    init(content: Content, declaration: ResponseDeclaration) {
        self.content = content
        self.declaration = declaration
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        try resolver.appendDeclaration(component.declaration)
        try Content._resolve(component.content, in: resolver)
    }
}
