/// Several components shown in sequence, with no node of its own.
public struct Group<Content: Component>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never
    /// The content, or what a statement of the builder closure threw.
    @usableFromInline let content: BuiltContent<Content>

    /// Groups the components the closure builds. Like ``Element``, it never needs `try`: the
    /// resolver makes its children one by one, and what a statement of the closure throws is
    /// kept and thrown when the group is resolved (a ``Promise`` suspends the group, which is
    /// made again once its query has run).
    /// - Parameter content: The components, in order.
    @inlinable
    public init(@ComponentBuilder content: () throws -> Content) {
        self.content = BuiltContent(content)
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        // Resolved here rather than through a helper: one frame less per level (see Element).
        if let failure = component.content.failure { throw BuildFailure.wrapping(failure) }
        try component.content.content?._resolveSelf(in: resolver)
    }
}
