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
/// Each element takes its own position below the `ForEach`: its offset in the collection, or its
/// id with ``init(_:id:content:)``, so a boundary inside an element keeps its ``BoundaryID``
/// when elements are inserted before it.
///
/// It never needs `try`, with or without `empty:`: the resolver makes the component of each
/// element, one at a time, so one that suspends or fails never hides the others. The `empty:`
/// closure runs when the `ForEach` is made, and only for an empty collection; what a statement
/// of it throws is kept and thrown when the `ForEach` is resolved, as though making it had
/// thrown (a ``Promise`` suspends it, and it is made again once its query has run).
public struct ForEach<Data: Collection, Content: Component, Empty: Component>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never
    @usableFromInline let data: Data
    @usableFromInline let content: (Data.Element) throws -> Content
    /// What the `empty:` closure built, or what a statement of it threw; nil when the collection
    /// is not empty, for then it is never shown and never built.
    @usableFromInline let empty: BuiltContent<Empty>?
    /// The key path to each element's id, given with `id:`; nil to number elements by offset.
    @usableFromInline let id: AnyKeyPath?

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
        self.init(data, id: nil, content: content, empty: data.isEmpty ? BuiltContent(empty) : nil)
    }

    @inlinable
    init(
        _ data: Data, id: AnyKeyPath?, content: @escaping (Data.Element) throws -> Content,
        empty: BuiltContent<Empty>?
    ) {
        self.data = data
        self.id = id
        self.content = content
        self.empty = empty
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        if let empty = component.empty {
            try empty.throwIfFailed()
            try empty.resolve(in: resolver)
            return
        }
        // Written as a child of a SuspenseList, each element is a row.
        resolver.spreadRows()
        if let id = component.id {
            try resolveKeyed(component, id: id, in: resolver)
            return
        }
        for element in component.data {
            try resolver.evaluate(element, with: component.content)
        }
    }

    /// The elements numbered by their ids: one `ElementKeys` for the loop, told which element
    /// is evaluated, and read only when a position is made inside one.
    @inlinable
    static func resolveKeyed(_ component: Self, id: AnyKeyPath, in resolver: _Resolver) throws {
        let data = component.data
        let keys = ElementKeys(data: data, path: id)
        resolver.positions.enterKeyed(keys)
        defer { resolver.positions.leaveKeyed() }
        var index = data.startIndex
        while index != data.endIndex {
            keys.index = index
            try resolver.evaluate(data[index], with: component.content)
            data.formIndex(after: &index)
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
        self.init(data, id: nil, content: content, empty: data.isEmpty ? BuiltContent(EmptyComponent()) : nil)
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
    /// collection changes order or grows. The boundaries inside an element are numbered below
    /// its id, not its offset (written `[id]` in a ``BoundaryID``, from `String(describing:)`),
    /// so inserting an element keeps the others' ids. Ids should be unique, and their
    /// descriptions too: an element whose id another element already took keeps its offset.
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
        self.init(data, id: id, content: content, empty: data.isEmpty ? BuiltContent(empty) : nil)
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
        self.init(data, id: id, content: content, empty: data.isEmpty ? BuiltContent(EmptyComponent()) : nil)
    }
}
