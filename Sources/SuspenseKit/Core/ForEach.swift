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
public struct ForEach<Data: Collection, Content: Component, Empty: Component>: Component {
    public typealias Body = Never
    @usableFromInline let data: Data
    @usableFromInline let content: (Data.Element) throws -> Content
    @usableFromInline let empty: Empty

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
    ) rethrows {
        self.data = data
        self.content = content
        self.empty = try empty()
    }

    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        if component.data.isEmpty {
            try Empty._resolve(component.empty, in: resolver)
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
        self.empty = EmptyComponent()
    }
}
