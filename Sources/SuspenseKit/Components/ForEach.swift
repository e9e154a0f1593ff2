/// One component per element of a collection, ranges included, with an optional fallback for
/// the loaded-but-empty state.
///
/// ```swift
/// ForEach(users) { user in
///     Element("li") { Text(user.name) }
/// } empty: {
///     Text("No users yet.")
/// }
/// ```
///
/// It never needs `try`, with or without `empty:`: the resolver makes the component of each
/// element, one at a time, so one that suspends or fails never hides the others. The `empty:`
/// closure runs when the `ForEach` is made, and only for an empty collection; what a statement
/// of it throws is kept and thrown when the `ForEach` is resolved, as though making it had
/// thrown (a ``Promise`` suspends it, and it is made again once its query has run).
public struct ForEach<Data: Collection, Content: Component, Empty: Component>: Component {
    public typealias Body = Never
    @usableFromInline let data: Data
    @usableFromInline let content: (Data.Element) throws -> Content
    /// What the `empty:` closure built, or what a statement of it threw; nil when the collection
    /// is not empty, for then it is never shown and never built.
    @usableFromInline let empty: BuiltContent<Empty>?

    /// Creates one component per element, and `empty` when there are none.
    /// - Parameters:
    ///   - data: The collection.
    ///   - content: Builds the component for one element.
    ///   - empty: Shown when the collection is empty.
    @inlinable
    public init(
        _ data: Data,
        @ComponentBuilder content: @escaping (Data.Element) throws -> Content,
        @ComponentBuilder empty: () throws -> Empty
    ) {
        self.data = data
        self.content = content
        self.empty = data.isEmpty ? BuiltContent(empty) : nil
    }

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        if let empty = component.empty {
            try empty.throwIfFailed()
            try empty.resolve(in: resolver)
            return
        }
        for element in component.data {
            try resolver.evaluate(element, with: component.content)
        }
    }
}

extension ForEach where Empty == EmptyComponent {
    /// Creates one component per element of a collection.
    /// - Parameters:
    ///   - data: The collection.
    ///   - content: Builds the component for one element.
    @inlinable
    public init(_ data: Data, @ComponentBuilder content: @escaping (Data.Element) throws -> Content) {
        self.data = data
        self.content = content
        self.empty = data.isEmpty ? BuiltContent(EmptyComponent()) : nil
    }
}

extension ForEach {
    /// Creates one component per element of a collection, as SwiftUI spells it, and `empty`
    /// when there are none.
    ///
    /// ```swift
    /// ForEach(users, id: \.id) { user in
    ///     Element("li") { Text(user.name) }
    /// } empty: {
    ///     Text("No users yet.")
    /// }
    /// ```
    ///
    /// `id` names each element's stable identity: what makes an element the same one when the
    /// collection changes order or grows. SuspenseKit identifies places by their position for
    /// now (boundary ids, re-evaluated content), so the key path is accepted and not read yet; a
    /// later version can use it to keep an element's boundaries attached to the element itself.
    /// - Parameters:
    ///   - data: The collection.
    ///   - id: The key path to each element's stable identity.
    ///   - content: Builds the component for one element.
    ///   - empty: Shown when the collection is empty.
    @inlinable
    public init<ID: Hashable>(
        _ data: Data,
        id: KeyPath<Data.Element, ID>,
        @ComponentBuilder content: @escaping (Data.Element) throws -> Content,
        @ComponentBuilder empty: () throws -> Empty
    ) {
        self.init(data, content: content, empty: empty)
    }
}

extension ForEach where Empty == EmptyComponent {
    /// Creates one component per element of a collection, as SwiftUI spells it.
    ///
    /// ```swift
    /// ForEach(users, id: \.id) { user in Element("li") { Text(user.name) } }
    /// ```
    ///
    /// `id` names each element's stable identity; see ``init(_:id:content:empty:)``.
    /// - Parameters:
    ///   - data: The collection.
    ///   - id: The key path to each element's stable identity.
    ///   - content: Builds the component for one element.
    @inlinable
    public init<ID: Hashable>(
        _ data: Data,
        id: KeyPath<Data.Element, ID>,
        @ComponentBuilder content: @escaping (Data.Element) throws -> Content
    ) {
        self.init(data, content: content)
    }
}
