extension Component {
    /// Wraps this component in a ``Suspense`` with the given fallback.
    public func suspense<Fallback: Component>(
        @ComponentBuilder fallback: @escaping () throws -> Fallback
    ) -> some Component {
        Suspense(content: { self }, fallback: fallback)
    }

    /// Wraps this component in an ``ErrorBoundary`` with the given fallback.
    public func errorBoundary<Fallback: Component>(
        @ComponentBuilder fallback: @escaping (any Error) throws -> Fallback
    ) -> some Component {
        ErrorBoundary(content: { self }, fallback: fallback)
    }
}
