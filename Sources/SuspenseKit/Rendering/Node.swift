/// One node of a resolved tree: what renderers turn into text and HTML.
///
/// Get one from ``resolve(_:cache:options:isolation:)``. The root is a ``Kind/fragment`` holding the
/// top-level nodes; fragments appear nowhere else, because builder plumbing, ``Group`` and
/// ``ForEach`` leave no node of their own.
public struct Node: Sendable, Hashable {
    /// What a node is.
    public enum Kind: Sendable, Hashable {
        /// The root of a resolved tree.
        case fragment
        /// Text, escaped in HTML.
        case text(String)
        /// An ``ErrorMessage``: `presented` is what HTML shows (escaped), `description` what
        /// `.tree` and `.plain` show.
        case errorMessage(presented: String, description: String)
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
        /// What a component declared about the HTTP response (``Component/httpStatus(_:)`` and
        /// the like): shown by `.tree`, written by no other format.
        case responseDeclaration(ResponseDeclaration)
    }

    /// What this node is.
    public var kind: Kind
    /// For a ``Suspense`` or ``ErrorBoundary`` resolved from a component tree, its position id;
    /// nil for other nodes and for trees built by hand. It names the node's place, not its
    /// content: equality and hashing ignore it.
    public var boundaryID: BoundaryID?
    /// The node's children, in order.
    public var children: [Node] {
        get { storage.children }
        _modify {
            if !isKnownUniquelyReferenced(&storage) {
                storage = ChildStorage(storage.children)
            }
            yield &storage.children
        }
    }

    /// The children live in a class so that its `deinit` can take a deep tree apart without
    /// recursion; leaves share one empty storage, so they cost no allocation.
    fileprivate var storage: ChildStorage

    /// Creates a node. Renderers accept only trees whose element and attribute names are valid;
    /// ``resolve(_:cache:options:isolation:)`` checks them, and so does rendering a tree built by hand.
    public init(_ kind: Kind, children: [Node] = []) {
        self.kind = kind
        self.storage = children.isEmpty ? ChildStorage.empty : ChildStorage(children)
    }
}

// Equality and hashing walk the tree with an explicit stack: the synthesized versions recurse
// once per level and overflow the stack on trees a few tens of thousands of levels deep.
extension Node {
    /// Whether both trees are equal, compared without recursion.
    public static func == (lhs: Node, rhs: Node) -> Bool {
        guard lhs.kind == rhs.kind else { return false }
        var pairs = [(lhs.storage, rhs.storage)]
        while let (left, right) = pairs.popLast() {
            if left === right { continue }
            guard left.children.count == right.children.count else { return false }
            for (leftChild, rightChild) in zip(left.children, right.children) {
                guard leftChild.kind == rightChild.kind else { return false }
                if leftChild.storage !== rightChild.storage {
                    pairs.append((leftChild.storage, rightChild.storage))
                }
            }
        }
        return true
    }

    /// Hashes the whole tree, without recursion.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        var stack = [storage]
        while let storage = stack.popLast() {
            hasher.combine(storage.children.count)
            for child in storage.children {
                hasher.combine(child.kind)
                if !child.storage.children.isEmpty { stack.append(child.storage) }
            }
        }
    }
}

/// The children of a ``Node``: copied on write (mutated only while uniquely referenced, hence
/// `@unchecked Sendable`), and torn down iteratively.
final class ChildStorage: @unchecked Sendable {
    var children: [Node]

    static let empty = ChildStorage([])

    init(_ children: [Node]) {
        self.children = children
    }

    /// Releasing a node releases its children, which release theirs: a recursion as deep as the
    /// tree. Instead, children that only this tree holds hand their own children to a work list.
    deinit {
        guard !children.isEmpty else { return }
        var pending = children
        children = []
        while var node = pending.popLast() {
            if !node.storage.children.isEmpty, isKnownUniquelyReferenced(&node.storage) {
                pending.append(contentsOf: node.storage.children)
                node.storage.children = []
            }
        }
    }
}

/// The state of a ``Suspense`` in a resolved tree.
public enum SuspenseState: Sendable, Hashable {
    /// Everything beneath it has resolved; its content is shown.
    case resolved
    /// Still waiting on these queries (keys, or `Promise<Value>` for keyless promises), in the
    /// order they were discovered; its fallback is shown (or nothing, where a ``SuspenseList``'s
    /// tail hides it).
    case pending([String])
    /// Its content is ready, but its ``SuspenseList`` holds it back until the row `row` (1 for
    /// the first child of the list that holds it) reveals, or the row that is its `element`th
    /// element when that child is a `ForEach`; its fallback is shown (or nothing, where the
    /// list's tail hides it).
    case held(row: Int, element: Int? = nil)
}

/// The state of an ``ErrorBoundary`` in a resolved tree.
public enum ErrorBoundaryState: Sendable, Hashable {
    /// Nothing beneath it failed; its content is shown.
    case clean
    /// It caught an error, described here; its fallback is shown.
    case caught(String)
    /// It caught an error after its retry policy evaluated its content `attempts` times in all;
    /// the last error is described here, and its fallback is shown.
    case caughtAfterRetries(String, attempts: Int)
}
