extension QueryCache {
    /// Creates an empty cache whose values go stale before they expire: for `freshFor` a value is
    /// served as it is; for `staleFor` more it is still served at once, and the first reader
    /// that meets it stale starts one refresh of the key in the background, with its own query
    /// (the readers meanwhile, and a render that finds the value expired, join that one run);
    /// after that the value has expired, and the next reader waits for a run as on a miss.
    ///
    /// A refresh belongs to the cache, not to the render that started it: it keeps that render's
    /// task-local values, is not cancelled when the render ends, and does not hold it. Its value
    /// replaces the stale one (fresh again), unless the key was invalidated meanwhile.
    ///
    /// Fail-safe: a refresh that fails stores nothing; the stale value keeps being served until it
    /// expires, the error goes to `onRefreshError`, and the key is not refreshed again before
    /// `refreshBackoff` has passed, so a failing backend sees one refresh per key and back-off,
    /// not one per read. A failure is never served stale: a stored failure (with
    /// ``FailureRetention/keep``) is used for `freshFor`, then the next reader runs the query.
    /// An expired value is never served: once past `staleFor`, a reader waits for a run (the
    /// refresh in flight, if any) as on a miss, and meets its failure as on a miss. A hard limit
    /// is the render's, as ever (a `Suspense` timeout, the render's deadline).
    /// - Parameters:
    ///   - capacity: How many results are kept at most, as in
    ///     ``init(capacity:failures:lifetime:clock:)``.
    ///   - failures: Whether a failure is kept for later renders (default `.dropAfterRender`).
    ///   - freshFor: How long a stored value is served without a refresh.
    ///   - staleFor: How long after that it is still served at once while a refresh runs.
    ///   - refreshBackoff: How long after a failed refresh of a key the next one may start
    ///     (default 5 seconds); meanwhile its stale value is served without one.
    ///   - refreshTimeout: A soft limit on a refresh (default: none): one that runs longer is
    ///     reported to `onRefreshError` with a ``RefreshTimedOut``, and goes on; the stale value
    ///     keeps being served, and the refresh still stores its value if it succeeds.
    ///   - clock: The clock ages are measured on (default `ContinuousClock()`; tests pass a
    ///     `TestClock`).
    ///   - onRefreshError: Called with the key and the error each time a refresh fails or
    ///     exceeds `refreshTimeout`, on the refresh's task: where a server logs what its users
    ///     do not see (they are served the stale value).
    public convenience init(
        capacity: Int? = QueryCache.defaultCapacity,
        failures: FailureRetention = .dropAfterRender,
        freshFor: Duration,
        staleFor: Duration,
        refreshBackoff: Duration = .seconds(5),
        refreshTimeout: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        onRefreshError: @escaping @Sendable (_ key: String, _ error: any Error) -> Void = { _, _ in }
    ) {
        precondition(
            freshFor >= .zero && staleFor >= .zero, "a QueryCache's freshFor and staleFor must not be negative")
        self.init(
            capacity: capacity, failures: failures, lifetime: freshFor + staleFor,
            freshness: Freshness(
                freshFor: freshFor, staleFor: staleFor, backoff: refreshBackoff, timeout: refreshTimeout,
                onError: onRefreshError),
            clock: clock)
    }

    /// When values go stale and what becomes of their refreshes.
    struct Freshness: Sendable {
        var freshFor: Duration
        var staleFor: Duration
        var backoff: Duration = .seconds(5)
        var timeout: Duration?
        var onError: @Sendable (String, any Error) -> Void = { _, _ in }
    }

    /// What `onRefreshError` is given when a refresh runs past the cache's `refreshTimeout`:
    /// the refresh goes on, and the stale value keeps being served.
    public struct RefreshTimedOut: Error, CustomStringConvertible {
        /// The soft limit the refresh ran past.
        public let timeout: Duration

        /// A description for logs.
        public var description: String { "a background refresh ran past its soft timeout of \(timeout)" }
    }
}
