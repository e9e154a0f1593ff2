/// What a container's builder closure built when the container was made: the content, or what
/// a statement of the closure threw, kept to be thrown when the container is resolved. Not API.
///
/// Why containers keep it: ``Element``, ``Group`` and ``ForEach``'s `empty:` run their builder
/// closure when they are made, so that a static page costs no stored closure per element. Their
/// children are `@autoclosure`s, so building them runs no child's initializer: only a statement
/// of the closure itself (`let user = try resolveValue(…)`) can throw. Were the initializers
/// `rethrows`, every container around a `try` child would need a `try` of its own, though it
/// throws nothing early. So they do not throw; `throwIfFailed()` throws what they kept, wrapped
/// in a `BuildFailure`, when they are resolved.
///
/// Two optionals rather than a `Result`: matching an enum's payload in generic code copies it
/// (a retain per element, measurably slower on a static page), where optional chaining on
/// `content` lends it in place.
@usableFromInline
struct BuiltContent<Content: Component> {
    /// The content; nil when the closure threw.
    @usableFromInline let content: Content?
    /// What the closure threw.
    @usableFromInline let failure: (any Error)?

    /// Runs a container's builder closure at once and keeps what it built or threw.
    @inlinable
    init(_ build: () throws -> Content) {
        do {
            content = try build()
            failure = nil
        } catch {
            content = nil
            failure = error
        }
    }

    /// Content given as it is.
    @inlinable
    init(_ content: Content) {
        self.content = content
        self.failure = nil
    }

    /// What a closure threw, kept as it is.
    @inlinable
    init(failure: any Error) {
        self.content = nil
        self.failure = failure
    }

    /// Throws what the closure threw, wrapped in a `BuildFailure`; nothing when it built.
    @inlinable
    func throwIfFailed() throws {
        if let failure { throw BuildFailure.wrapping(failure) }
    }

    /// Resolves the content, which must have been built (see `throwIfFailed()`).
    @inlinable
    func resolve(in resolver: _Resolver) throws {
        try content?._resolveSelf(in: resolver)
    }
}

/// What a statement of a container's builder closure threw, thrown when the container is
/// resolved. Not API.
///
/// The wrapper tells the evaluation that made the container (`evaluate`, `resolveComposite`, a
/// slot's `rerun`) that the container failed as it was made, rather than that one of its
/// children failed: it unwraps the error and handles it as though making the container had
/// thrown it. A promise suspends the container in a slot that makes it again, running its
/// closure again, when the query has run; any other error goes to the nearest
/// ``ErrorBoundary``, located at the container. So the wrapper never reaches a boundary or a
/// user.
@usableFromInline
struct BuildFailure: Error {
    @usableFromInline let error: any Error

    init(_ error: any Error) {
        self.error = error
    }

    /// `error` wrapped, out of line: the `_resolve` of a container, inlined into every
    /// evaluation of it, keeps only the call.
    @usableFromInline @inline(never)
    static func wrapping(_ error: any Error) -> any Error {
        BuildFailure(error)
    }
}

extension Component {
    /// `_resolve` as a method, so that `content?._resolveSelf(in:)` can reach an optional's
    /// content by chaining.
    @inlinable
    func _resolveSelf(in resolver: _Resolver) throws {
        try Self._resolve(self, in: resolver)
    }
}
