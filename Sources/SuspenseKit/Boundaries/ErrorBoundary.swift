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
public struct ErrorBoundary<Content: Component, Fallback: Component>: Component {
    public typealias Body = Never
    @usableFromInline let makeContent: () throws -> Content
    @usableFromInline let makeFallback: (any Error) throws -> Fallback
    /// Whether the boundary catches an error; nil for every error.
    @usableFromInline let catches: ((any Error) -> Bool)?

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
        self.catches = nil
    }

    /// Creates a boundary that catches only errors of type `Failure`; any other error goes to the
    /// next boundary outside.
    /// - Parameters:
    ///   - type: The type of the errors this boundary catches.
    ///   - content: The components whose errors of that type this boundary catches.
    ///   - fallback: Builds what is shown instead, from the error as a `Failure`.
    public init<Failure: Error>(
        catching type: Failure.Type,
        @ComponentBuilder content: @escaping () throws -> Content,
        @ComponentBuilder fallback: @escaping (Failure) throws -> Fallback
    ) {
        self.makeContent = content
        // The resolver calls the fallback only with an error `catches` accepted; were it given
        // another, rethrowing it would send it on outward, where it belongs.
        self.makeFallback = { error in
            guard let failure = error as? Failure else { throw error }
            return try fallback(failure)
        }
        self.catches = { $0 is Failure }
    }

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        let makeContent = component.makeContent
        let makeFallback = component.makeFallback
        try resolver.resolveErrorBoundary(
            catches: component.catches,
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
        self.catches = nil
    }

    /// Creates a boundary that catches only errors of type `Failure` and shows them as the
    /// default fallback does; any other error goes to the next boundary outside.
    /// - Parameters:
    ///   - type: The type of the errors this boundary catches.
    ///   - content: The components whose errors of that type this boundary catches.
    public init<Failure: Error>(
        catching type: Failure.Type,
        @ComponentBuilder content: @escaping () throws -> Content
    ) {
        self.makeContent = content
        self.makeFallback = { error in Text(describeError(error, suggestion: true)) }
        self.catches = { $0 is Failure }
    }
}
