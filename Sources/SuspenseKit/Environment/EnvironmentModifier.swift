extension Component {
    /// Sets an environment value for the components made inside this one.
    ///
    /// ```swift
    /// Group {
    ///     try UserCard(id: 1)
    /// }
    /// .environment(\.locale, "fr")
    /// ```
    ///
    /// The value reaches everything this component's content makes: its body's children, their
    /// descendants, boundary content and fallbacks, components evaluated again after suspending.
    /// It does not reach this component's own ``Environment`` properties, which were read when it
    /// was made, in the environment outside.
    /// - Parameters:
    ///   - keyPath: A property of ``EnvironmentValues``, such as `\.locale`.
    ///   - value: The value its subtree reads.
    @inlinable
    public func environment<Value>(
        _ keyPath: WritableKeyPath<EnvironmentValues, Value>,
        _ value: Value
    ) -> some Component {
        _EnvironmentWriter(content: self, keyPath: keyPath, value: value)
    }
}

/// A component whose subtree sees one environment value set. Made by `.environment`; leaves no
/// node and no name in paths. Not API.
public struct _EnvironmentWriter<Content: Component, Value>: Component {
    /// A primitive has no body: the resolver handles it directly.
    public typealias Body = Never
    @usableFromInline let content: Content
    @usableFromInline let keyPath: WritableKeyPath<EnvironmentValues, Value>
    @usableFromInline let value: Value

    @inlinable
    init(content: Content, keyPath: WritableKeyPath<EnvironmentValues, Value>, value: Value) {
        self.content = content
        self.keyPath = keyPath
        self.value = value
    }

    /// Resolves the component into the render. Not API: only the resolver calls it.
    @inlinable
    public static func _resolve(_ component: Self, in resolver: _Resolver) throws {
        try resolver.resolveWithEnvironment({ $0[keyPath: component.keyPath] = component.value }) {
            try Content._resolve(component.content, in: $0)
        }
    }
}
