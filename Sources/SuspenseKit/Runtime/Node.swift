/// One node of a resolved tree: what renderers turn into text and HTML.
///
/// Get one from ``resolve(_:cache:options:)``. The root is a ``Kind/fragment`` holding the
/// top-level nodes; fragments appear nowhere else, because builder plumbing, ``Group`` and
/// ``ForEach`` leave no node of their own.
public struct Node: Sendable, Hashable {
    /// What a node is.
    public enum Kind: Sendable, Hashable {
        /// The root of a resolved tree.
        case fragment
        /// Text, escaped in HTML.
        case text(String)
        /// Markup from ``RawHTML``, unescaped in HTML.
        case rawHTML(String)
        /// An element with its attributes in order.
        case element(tag: String, attributes: [Attribute])
        /// A user component, by type name (generic arguments left out).
        case component(name: String)
        /// A ``Suspense``; its children are the fallback while pending, the content once resolved.
        case suspense(SuspenseState)
        /// An ``ErrorBoundary``; its children are the fallback once it caught an error.
        case errorBoundary(ErrorBoundaryState)
    }

    /// What this node is.
    public var kind: Kind
    /// The node's children, in order.
    public var children: [Node]

    /// Creates a node. Renderers accept only trees whose element and attribute names are valid;
    /// ``resolve(_:cache:options:)`` checks them, and so does rendering a tree built by hand.
    public init(_ kind: Kind, children: [Node] = []) {
        self.kind = kind
        self.children = children
    }
}

/// The state of a ``Suspense`` in a resolved tree.
public enum SuspenseState: Sendable, Hashable {
    /// Everything beneath it has resolved; its content is shown.
    case resolved
    /// Still waiting on these queries (keys, or `Promise<Value>` for keyless promises), in the
    /// order they were discovered; its fallback is shown.
    case pending([String])
}

/// The state of an ``ErrorBoundary`` in a resolved tree.
public enum ErrorBoundaryState: Sendable, Hashable {
    /// Nothing beneath it failed; its content is shown.
    case clean
    /// It caught an error, described here; its fallback is shown.
    case caught(String)
}
