/// Shows a fallback when anything beneath it throws an error other than a ``Promise``,
/// including a failed query rethrown at its component.
///
/// ```swift
/// ErrorBoundary {
///     Suspense { try UserCard(id: 1) } fallback: { Text("Loading…") }
/// } fallback: { error in
///     Text("Could not load: \(error)")
/// }
/// ```
///
/// An error thrown by the fallback itself goes to the next boundary outside.
public struct ErrorBoundary<Content: Component, Fallback: Component>: Component {
    public typealias Body = Never
    @usableFromInline let makeContent: () throws -> Content
    @usableFromInline let makeFallback: (any Error) throws -> Fallback

    /// Creates a boundary with a fallback built from the caught error.
    /// - Parameters:
    ///   - content: The components whose errors this boundary catches.
    ///   - fallback: Builds what is shown instead, from the error.
    public init(
        @ComponentBuilder content: @escaping () throws -> Content,
        @ComponentBuilder fallback: @escaping (any Error) throws -> Fallback
    ) {
        self.makeContent = content
        self.makeFallback = fallback
    }

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        let makeContent = component.makeContent
        let makeFallback = component.makeFallback
        try resolver.resolveErrorBoundary(
            content: { try $0.evaluate(makeContent, newLevel: false) },
            fallback: { resolver, error in try resolver.evaluate({ try makeFallback(error) }, newLevel: false) }
        )
    }
}

extension ErrorBoundary where Fallback == Text {
    /// Creates a boundary whose fallback shows the error: a ``PresentableError``'s title, message
    /// and recovery suggestion, or any other error's description.
    public init(@ComponentBuilder content: @escaping () throws -> Content) {
        self.makeContent = content
        self.makeFallback = { error in Text(describeError(error, suggestion: true)) }
    }
}
