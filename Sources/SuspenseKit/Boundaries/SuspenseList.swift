/// Orders how the ``Suspense`` boundaries among its rows reveal their content, so that a page
/// fills in a fixed order instead of in whatever order its data arrives.
///
/// ```swift
/// SuspenseList(revealOrder: .forwards, tail: .collapsed) {
///     Suspense { try Headlines() } fallback: { Text("Loading headlines…") }
///     Suspense { try Weather() } fallback: { Text("Loading weather…") }
///     Suspense { try Stocks() } fallback: { Text("Loading stocks…") }
/// }
/// ```
///
/// Each child written in the list is a row, and so is each element of a `ForEach` or a `for`
/// loop written there; a row's boundaries are the
/// Suspenses in it that no other Suspense of the row encloses, and a nested `SuspenseList` is a
/// row whose own rows reveal only once the outer list lets that row reveal. Every query beneath
/// every row starts at once: the order holds back what is *shown*, never what is loaded. A row
/// with no boundary is shown at once. A row whose boundary was discarded by an ``ErrorBoundary``
/// (an error, a timeout) counts as settled and lets the rows after it reveal. At the render's
/// deadline what has not revealed keeps its fallback. Every output (`render`, frames, streams in
/// either order, the live terminal) reveals the same rows at the same time; `.tree` shows a
/// boundary held back as `[held: waits for row N]`. See <doc:RevealingInOrder>.
public struct SuspenseList<Content: Component>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never

    @usableFromInline let revealOrder: RevealOrder
    @usableFromInline let tail: RevealTail
    /// The rows, or what a statement of the builder closure threw.
    @usableFromInline let content: BuiltContent<Content>

    /// Creates a list whose rows reveal in `revealOrder`.
    /// - Parameters:
    ///   - revealOrder: The order rows reveal in (default: ``RevealOrder/forwards``).
    ///   - tail: Which fallbacks the rows not revealed yet show, in the `forwards` and
    ///     `backwards` orders (default: ``RevealTail/hidden``).
    ///   - content: The rows, in order. Like ``Group``, it never needs `try`.
    @inlinable
    public init(
        revealOrder: RevealOrder = .forwards, tail: RevealTail = .hidden,
        @ComponentBuilder content: () throws -> Content
    ) {
        self.revealOrder = revealOrder
        self.tail = tail
        self.content = BuiltContent(content)
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        if let failure = component.content.failure { throw BuildFailure.wrapping(failure) }
        try resolver.resolveList(order: component.revealOrder, tail: component.tail) { resolver in
            try component.content.content?._resolveSelf(in: resolver)
        }
    }
}

/// The order in which the rows of a ``SuspenseList`` reveal.
public enum RevealOrder: Sendable, Hashable {
    /// First row first: a row whose content is ready waits for every row before it.
    case forwards
    /// Last row first: a row whose content is ready waits for every row after it.
    case backwards
    /// All rows at once, in one step (one chunk of a stream), when every row is ready.
    case together
    /// No coordination: each boundary reveals on its own, as outside a list.
    case independent
}

/// Which fallbacks the rows of a ``SuspenseList`` that have not revealed yet show, in the
/// `forwards` and `backwards` orders (`together` and `independent` show every fallback).
public enum RevealTail: Sendable, Hashable {
    /// None: a row shows nothing until it reveals, so the list grows row by row.
    case hidden
    /// Only the next row to reveal shows its fallback; the rows after it show nothing.
    case collapsed
    /// Every row not revealed yet shows its fallback.
    case visible
}
