// The environment of a place: the context names it by index (`EvaluationContext.environment`)
// into `Records.environments`, so a slot or boundary that captured its context re-evaluates
// its content with the environment of its place, and copying a context costs no retain.
//
// Components read it while they are made (`@Environment`), on the thread running the pass,
// through `RenderScope.current.environment`: the values of the
// context's index, published when that index changes (entering and leaving an `.environment`,
// replacing the context for a slot, a boundary's content or fallback), never per node. A tree
// that sets nothing never publishes.
//
// Ownership: the table belongs to the render's records and the published cell to its
// `RenderScope`, both owned by the resolver; query closures capture values, never the cell. When
// the render ends, every environment value it set goes with it.

extension EnvironmentValues {
    /// The environment of the place being evaluated; the defaults outside a render.
    static var current: EnvironmentValues {
        RenderScope.current?.environment.withLock { $0 } ?? EnvironmentValues()
    }
}

/// Indices of environments in `Records.environments`; 0 holds the default values.
typealias EnvironmentIndex = Int

extension _Resolver {
    /// Resolves `content` with the current environment changed by `update`.
    @usableFromInline
    func resolveWithEnvironment(
        _ update: (inout EnvironmentValues) -> Void,
        content: (_Resolver) throws -> Void
    ) throws {
        var values = records.environments[context.environment]
        update(&values)
        let outer = context.environment
        let captures = records.contextCaptures
        context.environment = records.environments.count
        records.environments.append(values)
        publishEnvironment()
        // Restored on a throw too: the ErrorBoundary catching it shows its fallback outside.
        defer {
            // No record captured a context inside: the values are needed no more, so that a list
            // of items each with its own value keeps one entry, not one per item.
            if records.contextCaptures == captures {
                assert(records.environments.count == context.environment + 1, "an inner environment was kept")
                records.environments.removeLast()
            }
            context.environment = outer
            publishEnvironment()
        }
        try content(self)
    }

    /// Makes `new` the context, as when a slot or a boundary's content or fallback is evaluated
    /// in its own place, and when the context before is restored; publishes its environment if
    /// it differs.
    func replaceContext(with new: EvaluationContext) {
        let published = context.environment
        context = new
        if new.environment != published { publishEnvironment() }
    }

    /// Exchanges the context with `other`, as `replaceContext` would replace it, without a copy.
    func swapContext(with other: inout EvaluationContext) {
        let published = context.environment
        swap(&context, &other)
        if context.environment != published { publishEnvironment() }
    }

    /// Makes the context's environment the one components being made read.
    private func publishEnvironment() {
        let values = records.environments[context.environment]
        scope.environment.withLock { $0 = values }
    }
}
