/// Shows a fallback while anything beneath it is suspended, and its content once all of it has
/// resolved. Every query discovered beneath it runs at once.
///
/// ```swift
/// Suspense {
///     try UserCard(id: 1)
///     try UserCard(id: 2)
/// } fallback: {
///     Text("Loading…")
/// }
/// ```
///
/// Nested boundaries resolve on their own: the nearest `Suspense` above a suspended component
/// is the one that waits for it.
///
/// With a `timeout`, a boundary still pending that long after it first showed its fallback
/// gives up: the queries only it waits on are cancelled, and a ``TimeoutError`` goes to the
/// nearest ``ErrorBoundary`` above it. The time is measured on ``RenderOptions/clock``.
public struct Suspense<Content: Component, Fallback: Component>: Component {
    public typealias Body = Never

    /// Builds the content; the typed form is called with `nil` first, then with the value of
    /// the keyless promise it caught.
    @usableFromInline let makeContent: (Any?) throws -> Content
    @usableFromInline let typedValueType: (any Any.Type)?
    @usableFromInline let makeFallback: () throws -> Fallback
    /// How long the boundary may show its fallback before it fails with a ``TimeoutError``.
    @usableFromInline let timeout: Duration?

    /// Creates a boundary with a fallback.
    /// - Parameters:
    ///   - timeout: How long the fallback may show before the boundary fails with a
    ///     ``TimeoutError`` (default: no limit).
    ///   - content: The components that may suspend.
    ///   - fallback: Shown while any of them is suspended.
    public init(
        timeout: Duration? = nil,
        @ComponentBuilder content: @escaping () throws -> Content,
        @ComponentBuilder fallback: @escaping () throws -> Fallback
    ) {
        self.makeContent = { _ in try content() }
        self.typedValueType = nil
        self.makeFallback = fallback
        self.timeout = timeout
    }

    /// Creates the typed boundary of the swiftui-suspense article: `content` is called with `nil`
    /// first; a `Promise<Value>` without a key thrown beneath it is run, and `content` is called
    /// again with its value.
    /// - Parameters:
    ///   - timeout: How long the fallback may show before the boundary fails with a
    ///     ``TimeoutError`` (default: no limit).
    ///   - content: Builds the content from the value, `nil` until it has loaded.
    ///   - fallback: Shown while the content is suspended.
    public init<Value: Sendable>(
        timeout: Duration? = nil,
        @ComponentBuilder content: @escaping (Value?) throws -> Content,
        @ComponentBuilder fallback: @escaping () throws -> Fallback
    ) {
        self.makeContent = { try content($0 as? Value) }
        self.typedValueType = Value.self
        self.makeFallback = fallback
        self.timeout = timeout
    }

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        let makeContent = component.makeContent
        let makeFallback = component.makeFallback
        try resolver.resolveSuspense(
            typedValueType: component.typedValueType,
            timeout: component.timeout,
            content: { resolver, value in try resolver.evaluate({ try makeContent(value) }, newLevel: false) },
            fallback: { resolver in try resolver.evaluate(makeFallback, newLevel: false) }
        )
    }
}

extension Suspense where Fallback == Text {
    /// Creates a boundary whose fallback is the text "Loading…".
    public init(timeout: Duration? = nil, @ComponentBuilder content: @escaping () throws -> Content) {
        self.makeContent = { _ in try content() }
        self.typedValueType = nil
        self.makeFallback = { Text("Loading…") }
        self.timeout = timeout
    }

    /// Creates the typed boundary with the default "Loading…" fallback.
    public init<Value: Sendable>(
        timeout: Duration? = nil, @ComponentBuilder content: @escaping (Value?) throws -> Content
    ) {
        self.makeContent = { try content($0 as? Value) }
        self.typedValueType = Value.self
        self.makeFallback = { Text("Loading…") }
        self.timeout = timeout
    }
}
