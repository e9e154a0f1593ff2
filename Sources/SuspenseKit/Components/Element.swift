/// An HTML element: a tag, attributes in the order written, and children.
///
/// ```swift
/// Element("a", attributes: ["href": "/"]) { Text("Home") }
/// Element("img", attributes: ["src": "/logo.png", "alt": "Logo"])
/// ```
///
/// Void elements (`br`, `img`, `input`, …) render without a closing tag and cannot have
/// children: content that leaves any node (text, even empty, an element, a component, a
/// boundary, a child that suspends) is an ``InvalidMarkupError`` at the element, while an empty
/// `Group` or an `if` that is false is fine. So is an invalid tag or attribute name, and an
/// attribute name given twice in any letter case (`class` and `CLASS`). Each is routed like any
/// other error to the nearest ``ErrorBoundary``: never markup.
///
/// An element never needs `try`: in `Element("ul") { try UserCard(id: 1) }` the resolver makes
/// each child, one at a time. The content is built when the element is made (no stored closure
/// per element); what a statement of the closure throws, such as `let user = try resolveValue(…)`,
/// is kept and thrown when the element is resolved, as though making it had thrown: a ``Promise``
/// suspends the element, which is made again once its query has run. An element made once and
/// kept, in a property, keeps what its content threw: make such elements where they are shown.
public struct Element<Content: Component>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never

    /// The tag name.
    public let tag: String
    /// The attributes, in the order written.
    public let attributes: [Attribute]
    /// The content, or what a statement of the builder closure threw.
    @usableFromInline let content: BuiltContent<Content>

    /// Creates an element with children.
    /// - Parameters:
    ///   - tag: The tag name, such as `"p"` or `"my-widget"`.
    ///   - attributes: Attributes in the order they are emitted.
    ///   - content: The children.
    @inlinable
    public init(
        _ tag: String,
        attributes: KeyValuePairs<String, String> = [:],
        @ComponentBuilder content: () throws -> Content
    ) {
        self.tag = tag
        self.attributes = attributes.map { Attribute($0.key, $0.value) }
        self.content = BuiltContent(content)
    }

    /// Creates an element from a list of attributes built elsewhere.
    /// - Parameters:
    ///   - tag: The tag name.
    ///   - attributes: Attributes in the order they are emitted.
    ///   - content: The children.
    @inlinable
    public init(
        _ tag: String,
        attributes: [Attribute],
        @ComponentBuilder content: () throws -> Content
    ) {
        self.tag = tag
        self.attributes = attributes
        self.content = BuiltContent(content)
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        if let failure = component.content.failure { throw BuildFailure.wrapping(failure) }
        // The content resolved here rather than through a helper: one frame less per element,
        // which is what bounds the depth of a render on an actor's thread in debug builds.
        try resolver.resolveElement(tag: component.tag, attributes: component.attributes) { resolver in
            try component.content.content?._resolveSelf(in: resolver)
        }
    }
}

extension Element {
    /// An element that stands for one whose making threw `error`, never resolved: see `_MadeElement`.
    @inlinable
    init(placeholderFor error: _MadeFailure<Self>) {
        self.tag = ""
        self.attributes = []
        self.content = BuiltContent(failure: error)
    }
}

extension Element where Content == EmptyComponent {
    /// Creates an element without children, such as `img` or `br`.
    /// - Parameters:
    ///   - tag: The tag name.
    ///   - attributes: Attributes in the order they are emitted.
    @inlinable
    public init(_ tag: String, attributes: KeyValuePairs<String, String> = [:]) {
        self.tag = tag
        self.attributes = attributes.map { Attribute($0.key, $0.value) }
        self.content = BuiltContent(EmptyComponent())
    }
}

/// One attribute of an ``Element``: a name and a value, escaped when rendered.
public struct Attribute: Sendable, Hashable {
    /// The attribute name.
    public var name: String
    /// The attribute value.
    public var value: String

    /// Creates an attribute.
    @inlinable
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
