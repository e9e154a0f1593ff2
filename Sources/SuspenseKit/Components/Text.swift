/// Text, shown as is: escaped in HTML, never interpreted as markup.
public struct Text: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never

    /// The text shown.
    public let content: String

    /// Creates text from a string.
    @inlinable
    public init(_ content: String) {
        self.content = content
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        resolver.appendLeaf(.text(component.content))
    }

    /// A string written in a builder is a `Text` of its own, which takes no position (a `Text`
    /// written as one is made by the builder, and takes one).
    @inlinable
    public static var _positionCount: Int { 0 }
}
