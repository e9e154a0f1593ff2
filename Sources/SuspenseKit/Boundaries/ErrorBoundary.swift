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
/// A typed boundary catches only errors of one type; any other error goes on to the next
/// boundary outside, as if the typed one were not there:
///
/// ```swift
/// ErrorBoundary(catching: NetworkError.self) {
///     try UserCard(id: 1)
/// } fallback: { (error: NetworkError) in
///     Text("Offline (\(error.code))")
/// }
/// ```
///
/// An error thrown by the fallback itself goes to the next boundary outside.
/// ``onError(_:)`` reports each failure the boundary catches.
///
/// With a `retry` policy, a boundary whose content failed evaluates it again before it shows its
/// fallback: after each failed attempt it forgets the failed queries beneath it, waits the
/// policy's backoff on the render's clock (meanwhile its content suspends: the nearest
/// ``Suspense`` shows its fallback), and tries again, up to the policy's `maxAttempts`. An error
/// that says it is not transient (``RetryableError``) is shown at once.
public struct ErrorBoundary<Content: Component, Fallback: Component>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never
    @usableFromInline let makeContent: () throws -> Content
    @usableFromInline let makeFallback: (any Error) throws -> Fallback
    /// Whether the boundary catches an error; nil for every error.
    @usableFromInline let catches: ((any Error) -> Bool)?
    /// Called with each failure the boundary catches; see ``onError(_:)``.
    @usableFromInline var errorHandler: ((CaughtError) -> Void)?
    /// How the content is tried again before the fallback is shown; nil: never.
    @usableFromInline let retry: RetryPolicy?

    /// The one initializer the public ones call.
    init(
        retry: RetryPolicy?, catches: ((any Error) -> Bool)?, makeContent: @escaping () throws -> Content,
        makeFallback: @escaping (any Error) throws -> Fallback
    ) {
        self.retry = retry
        self.makeContent = makeContent
        self.makeFallback = makeFallback
        self.catches = catches
    }

    /// Creates a boundary with a fallback built from the caught error.
    /// - Parameters:
    ///   - retry: How often, and after what waits, the content is evaluated again before the
    ///     fallback is shown (default: never).
    ///   - content: The components whose errors this boundary catches.
    ///   - fallback: Builds what is shown instead, from the error.
    public init(
        retry: RetryPolicy? = nil,
        @ComponentBuilder content: @escaping () throws -> Content,
        @ComponentBuilder fallback: @escaping (any Error) throws -> Fallback
    ) {
        self.init(retry: retry, catches: nil, makeContent: content, makeFallback: fallback)
    }

    /// Creates a boundary that catches only errors of type `Failure`; any other error goes to the
    /// next boundary outside.
    /// - Parameters:
    ///   - type: The type of the errors this boundary catches.
    ///   - retry: How often, and after what waits, the content is evaluated again before the
    ///     fallback is shown (default: never).
    ///   - content: The components whose errors of that type this boundary catches.
    ///   - fallback: Builds what is shown instead, from the error as a `Failure`.
    public init<Failure: Error>(
        catching type: Failure.Type,
        retry: RetryPolicy? = nil,
        @ComponentBuilder content: @escaping () throws -> Content,
        @ComponentBuilder fallback: @escaping (Failure) throws -> Fallback
    ) {
        // The resolver calls the fallback only with an error `catches` accepted; were it given
        // another, rethrowing it would send it on outward, where it belongs.
        self.init(
            retry: retry, catches: { $0 is Failure }, makeContent: content,
            makeFallback: { error in
                guard let failure = error as? Failure else { throw error }
                return try fallback(failure)
            })
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        let makeContent = component.makeContent
        let makeFallback = component.makeFallback
        try resolver.resolveErrorBoundary(
            catches: component.catches,
            onError: component.errorHandler,
            retry: component.retry,
            // Kept only by a boundary that tries its content again: no allocation otherwise.
            retryContent: component.retry == nil ? nil : { try $0.evaluate(makeContent, newLevel: false) },
            content: { try $0.evaluate(makeContent, newLevel: false) },
            fallback: { resolver, error in try resolver.evaluate({ try makeFallback(error) }, newLevel: false) }
        )
    }

    /// Calls `handler` with each failure this boundary catches: the error, the path of the
    /// component that threw it and the boundary's id. Calling it again adds a handler.
    ///
    /// ```swift
    /// ErrorBoundary { try UserCard(id: 1) }
    ///     .onError { failure in logger.error("\(failure)") }
    /// ```
    ///
    /// Each failure is reported once, by the boundary that caught it, before its fallback is
    /// evaluated: an error that a typed boundary lets through is reported by the boundary that
    /// catches it, and an error thrown by the fallback is a failure of its own, reported there.
    /// The handler runs synchronously on the render's task, like the components themselves.
    public func onError(_ handler: @escaping (CaughtError) -> Void) -> Self {
        var boundary = self
        if let previous = errorHandler {
            boundary.errorHandler = { failure in
                previous(failure)
                handler(failure)
            }
        } else {
            boundary.errorHandler = handler
        }
        return boundary
    }
}

extension ErrorBoundary where Fallback == ErrorMessage {
    /// Creates a boundary whose fallback shows the error as an ``ErrorMessage``: a
    /// ``PresentableError``'s title, message and recovery suggestion; for any other error, a
    /// generic message in HTML (see ``RenderOptions/errorDetails``) and its description in
    /// `.tree` and `.plain`.
    /// - Parameters:
    ///   - retry: How often, and after what waits, the content is evaluated again before the
    ///     fallback is shown (default: never).
    ///   - content: The components whose errors this boundary catches.
    public init(retry: RetryPolicy? = nil, @ComponentBuilder content: @escaping () throws -> Content) {
        self.init(retry: retry, catches: nil, makeContent: content, makeFallback: ErrorMessage.init)
    }

    /// Creates a boundary that catches only errors of type `Failure` and shows them as the
    /// default fallback does; any other error goes to the next boundary outside.
    /// - Parameters:
    ///   - type: The type of the errors this boundary catches.
    ///   - retry: How often, and after what waits, the content is evaluated again before the
    ///     fallback is shown (default: never).
    ///   - content: The components whose errors of that type this boundary catches.
    public init<Failure: Error>(
        catching type: Failure.Type,
        retry: RetryPolicy? = nil,
        @ComponentBuilder content: @escaping () throws -> Content
    ) {
        self.init(retry: retry, catches: { $0 is Failure }, makeContent: content, makeFallback: ErrorMessage.init)
    }
}
