/// A component that shows nothing.
public struct EmptyComponent: Component {
    public typealias Body = Never

    /// Creates an empty component.
    @inlinable
    public init() {}

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {}

    /// An empty builder block takes no position.
    @inlinable
    public static var _positionCount: Int { 0 }
}
