/// A piece of a declarative tree: a value whose `body` describes what it shows.
///
/// A component's initializer may throw: a thrown ``Promise`` suspends it until its query
/// resolves (the nearest ``Suspense`` shows its fallback meanwhile); any other error goes to
/// the nearest ``ErrorBoundary``.
///
/// ```swift
/// struct UserCard: Component {
///     let user: User
///     init(id: Int) throws {
///         user = try resolveValue(key: "user/\(id)") { try await api.user(id) }
///     }
///     var body: some Component {
///         Element("p") { Text("Hi, my name is \(user.name).") }
///     }
/// }
/// ```
public protocol Component {
    /// The type of component this component's body is made of.
    associatedtype Body: Component

    /// What this component shows. It may throw, like an initializer.
    @ComponentBuilder var body: Body { get throws }

    /// Resolves a component into the resolver. Not API: primitives implement it, user
    /// components get the default.
    static func _resolve(_ component: Self, in resolver: _Resolver) throws

    /// How many child positions the component takes where a builder writes it, shown or not,
    /// which keeps boundary ids static. Not API: 1, except for the builder's own plumbing.
    static var _positionCount: Int { get }
}

extension Component {
    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        try resolver.resolveComposite(component)
    }

    /// How many child positions the component takes in its builder block. Not API.
    @inlinable
    public static var _positionCount: Int { 1 }
}

extension Component where Body == Never {
    /// Primitive components have no body; the resolver handles them directly.
    public var body: Never {
        fatalError("\(Self.self) is a primitive component; its body is never evaluated")
    }
}

extension Never: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never
}
