/// A component that shows nothing.
public struct EmptyComponent: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never

    /// Creates an empty component.
    @inlinable
    public init() {}

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {}

    /// An empty builder block takes no position.
    @inlinable
    public static var _positionCount: Int { 0 }
}
