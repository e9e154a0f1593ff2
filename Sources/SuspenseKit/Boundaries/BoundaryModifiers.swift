// The boundary modifiers are unavailable, so that the mistake they invited cannot compile.
//
// A modifier is called on a component that was already made: in `try Slow().suspense { … }`,
// `Slow()` runs, and throws, before `.suspense` exists. Its promise (or error) then goes to the
// boundary *outside*, which shows its fallback, while `.tree` lists the modifier's boundary as
// resolved: the wrong boundary, silently. No modifier can catch what its receiver's initializer
// throws (Swift evaluates the receiver first, and offers no lazy receiver), so the modifiers
// could not be made to work for the components that need a boundary most. A deprecation would
// still compile the mistake. The closure forms take their content as a closure and make it
// inside the boundary, so they catch what an initializer throws: `Suspense { try Slow() }
// fallback: { … }` and `ErrorBoundary { try Slow() } fallback: { error in … }`.
// `ErrorBoundary.onError` is a modifier of another kind: it is called on a boundary, which never
// throws as it is made.

extension Component {
    /// Unavailable: a modifier cannot catch what this component's initializer throws, which
    /// goes to the boundary outside. Write `Suspense { try MyComponent() } fallback: { … }`.
    @available(
        *, unavailable,
        message:
            "a modifier cannot catch what the component's initializer throws; write Suspense { try MyComponent() } fallback: { … }"
    )
    public func suspense<Fallback: Component>(
        @ComponentBuilder fallback: @escaping () throws -> Fallback
    ) -> some Component {
        Suspense(content: { self }, fallback: fallback)
    }

    /// Unavailable: a modifier cannot catch what this component's initializer throws, which
    /// goes to the boundary outside. Write `ErrorBoundary { try MyComponent() } fallback: { error in … }`.
    @available(
        *, unavailable,
        message:
            "a modifier cannot catch what the component's initializer throws; write ErrorBoundary { try MyComponent() } fallback: { error in … }"
    )
    public func errorBoundary<Fallback: Component>(
        @ComponentBuilder fallback: @escaping (any Error) throws -> Fallback
    ) -> some Component {
        ErrorBoundary(content: { self }, fallback: fallback)
    }
}
