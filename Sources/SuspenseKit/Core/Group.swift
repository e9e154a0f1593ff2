/// Several components shown in sequence, with no node of its own.
public struct Group<Content: Component>: Component {
    public typealias Body = Never
    @usableFromInline let content: Content

    /// Groups the components the closure builds. Like ``Element``, it builds its content when
    /// created, so content with `try` lines needs `try Group { … }`; the children themselves are
    /// still evaluated one by one by the resolver.
    @inlinable
    public init(@ComponentBuilder content: () throws -> Content) rethrows {
        self.content = try content()
    }

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        try Content._resolve(component.content, in: resolver)
    }
}
