/// Markup emitted unescaped into HTML output: the only way to do so.
///
/// Use it only for markup you trust. The `.tree` format shows it as `raw "…"`; the `.plain`
/// format shows its visible text, as a browser would: character references decoded, comments,
/// scripts and styles dropped, its blocks and list items laid out like the tree's.
public struct RawHTML: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never

    /// The markup, emitted as written.
    public let html: String

    /// Creates raw markup.
    @inlinable
    public init(_ html: String) {
        self.html = html
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        resolver.appendLeaf(.rawHTML(component.html))
    }
}
