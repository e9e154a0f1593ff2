/// Error routing and naming: where an error thrown outside a pass goes, and how components and
/// paths are named in errors and outputs.
extension _Resolver {
    /// Sends an error thrown at `place` outside the evaluation of its boundary (by a slot, a
    /// fallback, a timeout, a deferred subtree) to the nearest ErrorBoundary that catches it (a
    /// typed one lets other errors pass), and onwards when that boundary's fallback throws; with
    /// none left, the render fails. While subtrees deferred earlier in the same evaluation wait
    /// to be evaluated, the error waits behind them (Resolver+Pass).
    func route(_ error: any Error, at place: EvaluationContext, path: [String]) {
        let error = located(error, at: path)
        if ready.hasFresh {
            postpone(at: place) { $0.route(error, at: place, path: path) }
            return
        }
        var boundary = place.errorBoundary
        var current = error
        while boundary >= 0 {
            let record = records.errorBoundaries[boundary]
            if record.catches(underlying(of: current)) {
                do {
                    try `catch`(current, at: boundary)
                    return
                } catch let next {
                    // The fallback threw: after what it deferred, to the boundary outside.
                    if ready.hasFresh {
                        postpone(at: record.outer) { $0.route(next, at: record.outer, path: path) }
                        return
                    }
                    current = next
                }
            }
            boundary = record.outer.errorBoundary
        }
        failures.uncaught = renderError(current)
    }

    func located(_ error: any Error, at path: ComponentPath) -> any Error {
        error is LocatedError ? error : LocatedError(path: names(of: path), underlying: error)
    }

    /// `located(_:at:)` with the path's names already made (a slot's, a boundary's).
    func located(_ error: any Error, at path: [String]) -> any Error {
        error is LocatedError ? error : LocatedError(path: path, underlying: error)
    }

    /// The names of `path`, root first.
    func names(of path: ComponentPath) -> [String] {
        paths.names(of: path).map { nodes.names[$0] }
    }

    /// The names of `path` and then `name`.
    func names(of path: ComponentPath, appending name: String) -> [String] {
        names(of: path) + [name]
    }

    /// The path of a component at `path`, for its errors: the place's names, and `component`
    /// after them when it `ends` error paths (a child made in place; a body's own component is
    /// on its path already). Errors need names only: making them adds no link.
    func errorPath(at path: ComponentPath, component: String, ends: Bool) -> [String] {
        ends ? names(of: path, appending: component) : names(of: path)
    }

    /// `errorPath(at:component:ends:)` of a slot's component.
    func errorPath(of slot: SlotRecord) -> [String] {
        errorPath(at: slot.context.path, component: slot.component, ends: slot.pathAddsComponent)
    }

    /// The error a component threw, without the path it travels with.
    func underlying(of error: any Error) -> any Error {
        (error as? LocatedError)?.underlying ?? error
    }

    // MARK: Failures while evaluating

    // Out of line, like everything on the paths of failure, so that `evaluate` stays small enough
    // for the primitives' `_resolve` to be inlined into it; `@inlinable` all the same, so that
    // they are specialized for the user's components.

    /// Making a child failed: see `childFailed(_:type:rerun:)`; the slot makes it again with
    /// `make`.
    @inlinable @inline(never)
    func childFailed<C: Component>(_ error: any Error, making make: @escaping () throws -> C) throws {
        try childFailed(error, type: C.self, rerun: _MakeAgain(make: make))
    }

    /// Resolving a child made with `make` threw `error`. A container that kept what its builder
    /// closure threw (a `BuildFailure`) failed as it was made, so the failure is handled as
    /// `make`'s: the slot makes the container again, which runs its closure again, and what such
    /// a run keeps reaches `rerun`, which unwraps it the same way. Any other error goes on up.
    @inlinable @inline(never)
    func resolveFailed<C: Component>(_ error: any Error, making make: @escaping () throws -> C) throws {
        guard let failure = error as? BuildFailure else { throw error }
        try childFailed(failure.error, making: make)
    }

    /// `childFailed(_:making:)` for a child made from an input.
    @inlinable @inline(never)
    func childFailed<Input, C: Component>(
        _ error: any Error,
        making make: @escaping (Input) throws -> C,
        from input: Input
    ) throws {
        try childFailed(error, type: C.self, rerun: _MakeAgainFrom(make: make, input: input))
    }

    /// `resolveFailed(_:making:)` for a child made from an input.
    @inlinable @inline(never)
    func resolveFailed<Input, C: Component>(
        _ error: any Error,
        making make: @escaping (Input) throws -> C,
        from input: Input
    ) throws {
        guard let failure = error as? BuildFailure else { throw error }
        try childFailed(failure.error, making: make, from: input)
    }

    /// Evaluating a component's body threw `error`: out of line, so that the closure that
    /// evaluates the body again takes no room in `resolveComposite`'s frame, which every level of
    /// a deep tree pays for. The slot re-evaluates only the body: the component was made already.
    @inlinable @inline(never)
    func bodyFailed<C: Component>(_ error: any Error, of component: C, named name: String) throws {
        try bodyFailed(error, component: name, rerun: _BodyAgain(component: component))
    }

    /// Resolving a component's body threw `error`: a body that is a container itself (written
    /// with `return`, so not built by the builder) and kept what its closure threw means that the
    /// body failed, and its slot evaluates the body again. Any other error goes on up.
    @inlinable @inline(never)
    func bodyResolveFailed<C: Component>(_ error: any Error, of component: C, named name: String) throws {
        guard let failure = error as? BuildFailure else { throw error }
        try bodyFailed(failure.error, of: component, named: name)
    }

    // MARK: Reporting failures

    /// Reports a failure that boundary `index` caught to the boundary's `onError` handlers, then
    /// to ``RenderOptions/onCaughtError``: every caught error passes through `catch`, which calls
    /// this, so each is reported once, by the boundary that caught it. Errors no boundary catches
    /// are reported where the render throws (`run`); deadline cut-offs are the third kind, to be
    /// reported from the render loop beside these.
    ///
    /// A boundary evaluated again (inside a typed Suspense's content, given its value) that
    /// catches the same error at the same place does not report it again.
    func reportCaught(_ error: any Error, at index: ErrorBoundaryIndex) {
        let record = records.errorBoundaries[index]
        collector?.caught(
            underlying(of: error), by: record.id, path: names(of: record.outer.path, appending: "ErrorBoundary"))
        guard record.onError != nil || options.onCaughtError != nil else { return }
        let underlying = underlying(of: error)
        let path = (error as? LocatedError)?.path ?? names(of: record.outer.path, appending: "ErrorBoundary")
        let failure = CaughtError(error: underlying, path: path, boundary: record.id)
        let key = ReportedFailure(boundary: record.id, path: path, error: String(describing: underlying))
        guard failures.reported.insert(key).inserted else { return }
        record.onError?(failure)
        options.onCaughtError?(failure)
    }

    func renderError(_ error: any Error) -> RenderError {
        if let error = error as? RenderError { return error }
        if let located = error as? LocatedError {
            return RenderError(path: located.path, underlying: located.underlying)
        }
        return RenderError(path: names(of: context.path), underlying: error)
    }

    /// A type's name as shown in paths and in the `.tree` format: no module, no generic arguments.
    @usableFromInline
    func name(of type: any Any.Type) -> String {
        naming.name(of: type).name
    }
}

/// A failure reported already: who caught what where.
struct ReportedFailure: Hashable {
    let boundary: BoundaryID
    let path: [String]
    let error: String
}

/// Names of component types, each computed once per render.
struct TypeNaming {
    struct Named {
        let name: String
        /// False for builder plumbing, which stands for a closure's whole content and never
        /// appears in a path; a user's type whose name begins with `_` does.
        let isShownInPaths: Bool
    }

    private var names: [ObjectIdentifier: Named] = [:]
    /// The type named last: lists name one component type many times in a row.
    private var last: (type: ObjectIdentifier, named: Named)?

    mutating func name(of type: any Any.Type) -> Named {
        let id = ObjectIdentifier(type)
        if let last, last.type == id { return last.named }
        let named: Named
        if let known = names[id] {
            named = known
        } else if let modifier = type as? any ContentModifier.Type {
            named = name(of: modifier.contentType)
            names[id] = named
        } else {
            var described = String(describing: type)
            if let angle = described.firstIndex(of: "<") {
                described = String(described[..<angle])
            }
            named = Named(name: described, isShownInPaths: !(type is any BuilderPlumbing.Type))
            names[id] = named
        }
        last = (id, named)
        return named
    }
}

/// A component that stands for the content it modifies, such as `.environment`'s: named as
/// its content, so that it never appears in a path.
protocol ContentModifier {
    static var contentType: any Any.Type { get }
}

extension _EnvironmentWriter: ContentModifier {
    static var contentType: any Any.Type { Content.self }
}

/// The types a ``ComponentBuilder`` makes of a closure's content: never named in a path.
protocol BuilderPlumbing {}

extension _Deferred: BuilderPlumbing {}
extension _MadeText: BuilderPlumbing {}
extension _MadeElement: BuilderPlumbing {}
extension _Pair: BuilderPlumbing {}
extension _Either: BuilderPlumbing {}
extension _Array: BuilderPlumbing {}
extension Optional: BuilderPlumbing where Wrapped: Component {}
