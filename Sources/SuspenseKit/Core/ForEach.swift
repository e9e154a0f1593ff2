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
    let data: Data
    let content: (Data.Element) throws -> Content
    let makeEmpty: () throws -> Empty

    /// Creates one component per element, and `empty` when there are none.
    /// - Parameters:
    ///   - data: The collection.
    ///   - content: Builds the component for one element.
    ///   - empty: Shown when the collection is empty.
    public init(
        _ data: Data,
        @ComponentBuilder content: @escaping (Data.Element) throws -> Content,
        @ComponentBuilder empty: @escaping () throws -> Empty
    ) {
        self.data = data
        self.content = content
        self.makeEmpty = empty
    }

    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        if component.data.isEmpty {
            try resolver.evaluate(component.makeEmpty)
            return
        }
        let content = component.content
        for element in component.data {
            try resolver.evaluate { try content(element) }
        }
    }
}

extension ForEach where Empty == EmptyComponent {
    /// Creates one component per element of a collection.
    /// - Parameters:
    ///   - data: The collection.
    ///   - content: Builds the component for one element.
    public init(_ data: Data, @ComponentBuilder content: @escaping (Data.Element) throws -> Content) {
        self.data = data
        self.content = content
        self.makeEmpty = { EmptyComponent() }
    }
}
