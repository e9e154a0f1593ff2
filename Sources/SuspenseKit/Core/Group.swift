/// Several components shown in sequence, with no node of its own.
public struct Group<Content: Component>: Component {
    public typealias Body = Never
    @usableFromInline let makeContent: () throws -> Content

    /// Groups the components the closure builds.
    public init(@ComponentBuilder content: @escaping () throws -> Content) {
        self.makeContent = content
    }

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        try resolver.evaluate(component.makeContent)
    }
}
