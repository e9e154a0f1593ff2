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
/// nearest ``ErrorBoundary`` above it. `fallbackDelay` and `minimumFallbackDuration` shape what
/// streams and frames show: content that resolves within the delay appears at once, never as a
/// fallback, and a fallback once shown stays at least the minimum, so that it does not flash.
/// Every time is measured on ``RenderOptions/clock``; a negative time counts as zero, and one of
/// 100 years or more as forever (such a timeout never fires).
public struct Suspense<Content: Component, Fallback: Component>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never

    /// Builds the content; the typed form is called with `nil` first, then with the value of
    /// the keyless promise it caught.
    @usableFromInline let makeContent: (Any?) throws -> Content
    @usableFromInline let typedValueType: (any Any.Type)?
    @usableFromInline let makeFallback: () throws -> Fallback
    /// The timeout and fallback timing; nil when the boundary has none.
    @usableFromInline let timing: _SuspenseTiming?

    /// The one initializer the public ones call: untyped content takes no value
    /// (`typedValueType` nil).
    init(
        timeout: Duration?, fallbackDelay: Duration?, minimumFallbackDuration: Duration?,
        typedValueType: (any Any.Type)?, makeContent: @escaping (Any?) throws -> Content,
        makeFallback: @escaping () throws -> Fallback
    ) {
        self.makeContent = makeContent
        self.typedValueType = typedValueType
        self.makeFallback = makeFallback
        self.timing = _SuspenseTiming(
            timeout: timeout, fallbackDelay: fallbackDelay, minimumFallbackDuration: minimumFallbackDuration)
    }

    /// Creates a boundary with a fallback.
    /// - Parameters:
    ///   - timeout: How long the fallback may show before the boundary fails with a
    ///     ``TimeoutError`` (default: no limit; a negative timeout is zero, and one of 100 years
    ///     or more is no limit).
    ///   - fallbackDelay: How long content may take before the fallback is shown in a stream or
    ///     frames; content that resolves sooner is shown at once (default: none).
    ///   - minimumFallbackDuration: How long a fallback, once shown, stays before the content
    ///     replaces it (default: none).
    ///   - content: The components that may suspend.
    ///   - fallback: Shown while any of them is suspended.
    public init(
        timeout: Duration? = nil,
        fallbackDelay: Duration? = nil,
        minimumFallbackDuration: Duration? = nil,
        @ComponentBuilder content: @escaping () throws -> Content,
        @ComponentBuilder fallback: @escaping () throws -> Fallback
    ) {
        self.init(
            timeout: timeout, fallbackDelay: fallbackDelay, minimumFallbackDuration: minimumFallbackDuration,
            typedValueType: nil, makeContent: { _ in try content() }, makeFallback: fallback)
    }

    /// Creates the typed boundary of the swiftui-suspense article: `content` is called with `nil`
    /// first; a `Promise<Value>` without a key thrown beneath it is run, and `content` is called
    /// again with its value.
    /// - Parameters:
    ///   - timeout: How long the fallback may show before the boundary fails with a
    ///     ``TimeoutError`` (default: no limit; a negative timeout is zero, and one of 100 years
    ///     or more is no limit).
    ///   - fallbackDelay: How long content may take before the fallback is shown in a stream or
    ///     frames; content that resolves sooner is shown at once (default: none).
    ///   - minimumFallbackDuration: How long a fallback, once shown, stays before the content
    ///     replaces it (default: none).
    ///   - content: Builds the content from the value, `nil` until it has loaded.
    ///   - fallback: Shown while the content is suspended.
    public init<Value: Sendable>(
        timeout: Duration? = nil,
        fallbackDelay: Duration? = nil,
        minimumFallbackDuration: Duration? = nil,
        @ComponentBuilder content: @escaping (Value?) throws -> Content,
        @ComponentBuilder fallback: @escaping () throws -> Fallback
    ) {
        self.init(
            timeout: timeout, fallbackDelay: fallbackDelay, minimumFallbackDuration: minimumFallbackDuration,
            typedValueType: Value.self, makeContent: { try content($0 as? Value) }, makeFallback: fallback)
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        let makeContent = component.makeContent
        let makeFallback = component.makeFallback
        try resolver.resolveSuspense(
            typedValueType: component.typedValueType,
            timing: component.timing,
            content: { resolver, value in try resolver.evaluate({ try makeContent(value) }, newLevel: false) },
            fallback: { resolver in try resolver.evaluate(makeFallback, newLevel: false) }
        )
    }
}

extension Suspense where Fallback == Text {
    /// Creates a boundary whose fallback is the text "Loading…".
    public init(
        timeout: Duration? = nil,
        fallbackDelay: Duration? = nil,
        minimumFallbackDuration: Duration? = nil,
        @ComponentBuilder content: @escaping () throws -> Content
    ) {
        self.init(
            timeout: timeout, fallbackDelay: fallbackDelay, minimumFallbackDuration: minimumFallbackDuration,
            typedValueType: nil, makeContent: { _ in try content() }, makeFallback: { Text("Loading…") })
    }

    /// Creates the typed boundary with the default "Loading…" fallback.
    public init<Value: Sendable>(
        timeout: Duration? = nil,
        fallbackDelay: Duration? = nil,
        minimumFallbackDuration: Duration? = nil,
        @ComponentBuilder content: @escaping (Value?) throws -> Content
    ) {
        self.init(
            timeout: timeout, fallbackDelay: fallbackDelay, minimumFallbackDuration: minimumFallbackDuration,
            typedValueType: Value.self, makeContent: { try content($0 as? Value) },
            makeFallback: { Text("Loading…") })
    }
}

/// A Suspense's timeout and fallback timing. Not API: public only because the inlinable
/// `Suspense._resolve` passes it to the resolver.
///
/// Each setting is a wait (`Duration+Waits`): a negative timeout is zero (it fires at once), and
/// a negative or zero delay or minimum is none. A timeout of `Duration.longestWait` or more is no
/// timeout; a delay or minimum that long is kept as `Duration.longestWait`, a hold that never
/// ends. So the resolver's sums of these with times since the render's start cannot overflow.
public struct _SuspenseTiming: Sendable {
    let timeout: Duration?
    let fallbackDelay: Duration?
    let minimumFallbackDuration: Duration?

    /// Nil when every setting is nil, so that a boundary without timing carries nothing.
    @usableFromInline
    init?(timeout: Duration?, fallbackDelay: Duration?, minimumFallbackDuration: Duration?) {
        if timeout == nil && fallbackDelay == nil && minimumFallbackDuration == nil { return nil }
        self.timeout = timeout.flatMap { $0.neverArrives ? nil : max($0, .zero) }
        self.fallbackDelay = fallbackDelay.flatMap { $0 > .zero ? $0.clampedWait : nil }
        self.minimumFallbackDuration = minimumFallbackDuration.flatMap { $0 > .zero ? $0.clampedWait : nil }
    }
}
