/// Settings of one render.
public struct RenderOptions: Sendable {
    /// The order in which query results are applied to the tree.
    public enum DeliveryOrder: Sendable {
        /// As each query finishes: the fastest, and what users see.
        case completion
        /// In the order the queries were discovered, whatever order they finish in, so that the
        /// sequence of frames is the same on every run.
        case discovery
    }

    /// What HTML shows of an error that ``ErrorMessage`` (the default ``ErrorBoundary``
    /// fallback) presents and that is not a ``PresentableError``.
    public enum ErrorDetails: Sendable, Hashable {
        /// A generic message: an error's description may hold what a visitor must not see (a
        /// connection string, a path, a query).
        case hidden
        /// The error's description, as `.tree` and `.plain` show it: for development only.
        case shown
    }

    /// How many times a component may suspend again after the query it waited on resolved
    /// before it fails with ``SuspenseError/stillSuspending(component:attempts:lastQuery:)``.
    /// The first suspension is not counted.
    public var maxResuspensions: Int
    /// The order in which query results are applied.
    public var deliveryOrder: DeliveryOrder
    /// How deep the tree may nest (components, elements and boundaries, counted from the root)
    /// before the component that goes deeper fails with
    /// ``SuspenseError/tooDeep(component:limit:)``, instead of overflowing the stack.
    ///
    /// Any depth up to this limit renders on any thread or actor: the resolver keeps a bounded
    /// number of levels on the machine stack and evaluates the subtrees below them afterwards, in
    /// their own places, so the output is the same as if they had been evaluated in order.
    public var maxDepth: Int
    /// The clock every wait of the render goes through: ``Suspense`` timeouts, the `deadline`,
    /// and ``RetryPolicy`` backoff. `ContinuousClock` by default; tests pass SuspenseTesting's
    /// `TestClock` and advance it by hand, so that nothing sleeps for real.
    public var clock: any Clock<Duration>
    /// How long the render may wait for queries, from its start on `clock`. When it passes,
    /// every ``Suspense`` still pending keeps its fallback in the result, every query still
    /// running is cancelled (one that ignores cancellation no longer holds the render: its late
    /// result is dropped), and the render returns the page. Content still pending outside every
    /// `Suspense` has no fallback to show: the render then throws a ``RenderError`` with a
    /// ``TimeoutError``. `nil` (the default) waits as long as the queries take, as does a
    /// deadline of 100 years or more; a negative one counts as zero.
    public var deadline: Duration?
    /// What HTML, whole or streamed, shows of an error that is not a ``PresentableError`` in an
    /// ``ErrorMessage``, the default ``ErrorBoundary`` fallback: `.hidden` (the default) shows a
    /// generic message, `.shown` the error's description, for development. A `PresentableError`
    /// always shows its title and message; `.tree` and `.plain` always show the description.
    public var errorDetails: ErrorDetails
    /// How many levels of evaluation a pass keeps on the machine stack before it defers the
    /// subtree below (see Resolver+Pass). Not API: tests lower it to defer at every level and
    /// check that the output does not change.
    var levelsOnStack = 48

    // MARK: Hooks
    // Render-wide reports, each failure exactly once: caught errors, uncaught errors, and
    // deadline cut-offs; and what the render did (its report and diagnostics). Set with the
    // methods of the same names (`.onDeadline { … }`), never by the initializer: a trailing
    // closure given to it would silently become the first hook.

    /// Called with each failure an ``ErrorBoundary`` catches anywhere in the render, after the
    /// boundary's own ``ErrorBoundary/onError(_:)`` handlers: once per failure, by the boundary
    /// that caught it (an error thrown by a fallback and caught further out is a second failure).
    /// Boundaries a render deadline cuts off are no caught failure: the deadline's own hook,
    /// beside this one and ``onUncaughtError``, reports them. Set it with
    /// ``onCaughtError(_:)``.
    ///
    /// Runs synchronously on the render's task, on the caller's actor when the render is isolated
    /// to one; a render with no actor may call it from the thread that continues a deep subtree
    /// on a larger stack while the render's task waits.
    public var onCaughtError: (@Sendable (CaughtError) -> Void)?
    /// Called once with the ``RenderError`` of an error no ``ErrorBoundary`` caught, just before
    /// the render throws it (or, for a stream or live frames, ends by throwing it). Set it with
    /// ``onUncaughtError(_:)``.
    ///
    /// Runs on the render's task, on the caller's actor when the render is isolated to one.
    public var onUncaughtError: (@Sendable (RenderError) -> Void)?
    /// Called once when the ``deadline`` cut the render short, with one ``TimeoutError`` per
    /// ``Suspense`` left showing its fallback (its path, the deadline, the queries it waited
    /// on), in document order. Called on the render's task, before the render returns. Set it
    /// with ``onDeadline(_:)``.
    public var onDeadline: (@Sendable ([TimeoutError]) -> Void)?
    /// Called once as the render ends, whether it returns or throws, with what it did: its
    /// ``RenderReport`` (boundaries, queries, cache outcomes, diagnostics). Whole renders,
    /// frames, live frames and streams all deliver it; a stream when its last chunk is made.
    /// Set it with ``onReport(_:)``. A render that nobody asks for a report builds none.
    ///
    /// Runs on the render's task, on the caller's actor when the render is isolated to one.
    public var onReport: (@Sendable (RenderReport) -> Void)?
    /// Called with each ``Diagnostic`` as the render notices it (a waterfall of queries, a
    /// swallowed suspension, …), before an error it announces is thrown. Set it with
    /// ``onDiagnostic(_:)``.
    ///
    /// Runs synchronously on the render's task, on the caller's actor when the render is
    /// isolated to one.
    public var onDiagnostic: (@Sendable (Diagnostic) -> Void)?
    /// Called with the report as it stands when the shell is ready, before the shell is sent:
    /// what a served page's `Server-Timing` header is made of.
    var onShellReport: (@Sendable (RenderReport) -> Void)?

    /// Creates options. The hooks are set with methods, which a trailing closure cannot be
    /// mistaken for: `RenderOptions(deadline: .seconds(1)).onDeadline { cutOff in … }`.
    /// - Parameters:
    ///   - maxResuspensions: The bound on re-suspensions of one component (default 32).
    ///   - deliveryOrder: The order in which query results are applied (default `.completion`).
    ///   - maxDepth: How deep the tree may nest (default 100,000).
    ///   - clock: The clock of every wait (default `ContinuousClock()`).
    ///   - deadline: How long the render may wait for queries (default: no limit).
    ///   - errorDetails: Whether HTML shows the description of an error that is not
    ///     presentable (default `.hidden`: a generic message).
    public init(
        maxResuspensions: Int = 32,
        deliveryOrder: DeliveryOrder = .completion,
        maxDepth: Int = 100_000,
        clock: any Clock<Duration> = ContinuousClock(),
        deadline: Duration? = nil,
        errorDetails: ErrorDetails = .hidden
    ) {
        self.maxResuspensions = maxResuspensions
        self.deliveryOrder = deliveryOrder
        self.maxDepth = maxDepth
        self.clock = clock
        self.deadline = deadline
        self.errorDetails = errorDetails
    }

    /// These options, calling `hook` with each failure a boundary catches (see the
    /// ``onCaughtError`` property); replaces the hook set before, if any.
    ///
    /// ```swift
    /// let options = RenderOptions().onCaughtError { failure in logger.warning("\(failure)") }
    /// ```
    public func onCaughtError(_ hook: @escaping @Sendable (CaughtError) -> Void) -> RenderOptions {
        var options = self
        options.onCaughtError = hook
        return options
    }

    /// These options, calling `hook` with the error no boundary caught, before the render throws
    /// it (see the ``onUncaughtError`` property); replaces the hook set before, if any.
    public func onUncaughtError(_ hook: @escaping @Sendable (RenderError) -> Void) -> RenderOptions {
        var options = self
        options.onUncaughtError = hook
        return options
    }

    /// These options, calling `hook` with what the ``deadline`` cut off when it passes (see the
    /// ``onDeadline`` property); replaces the hook set before, if any.
    ///
    /// ```swift
    /// let options = RenderOptions(deadline: .seconds(1)).onDeadline { cutOff in
    ///     log.warning("cut off: \(cutOff)")
    /// }
    /// ```
    public func onDeadline(_ hook: @escaping @Sendable ([TimeoutError]) -> Void) -> RenderOptions {
        var options = self
        options.onDeadline = hook
        return options
    }

    /// These options, calling `hook` with the render's ``RenderReport`` as it ends (see the
    /// ``onReport`` property); replaces the hook set before, if any.
    ///
    /// ```swift
    /// let options = RenderOptions().onReport { report in print(report) }
    /// ```
    public func onReport(_ hook: @escaping @Sendable (RenderReport) -> Void) -> RenderOptions {
        var options = self
        options.onReport = hook
        return options
    }

    /// These options, calling `hook` with each ``Diagnostic`` the render notices (see the
    /// ``onDiagnostic`` property); replaces the hook set before, if any.
    ///
    /// ```swift
    /// let options = RenderOptions().onDiagnostic { diagnostic in logger.warning("\(diagnostic)") }
    /// ```
    public func onDiagnostic(_ hook: @escaping @Sendable (Diagnostic) -> Void) -> RenderOptions {
        var options = self
        options.onDiagnostic = hook
        return options
    }
}
