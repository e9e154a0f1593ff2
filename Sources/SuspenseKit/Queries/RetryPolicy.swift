/// How a failed query is tried again: up to `maxAttempts` runs in all, waiting between them
/// with exponential backoff on the render's clock (``RenderOptions/clock``).
///
/// ```swift
/// let feed = try resolveValue(key: "feed", retry: RetryPolicy(maxAttempts: 3)) {
///     try await api.feed()
/// }
/// ```
///
/// The wait before attempt *n + 1* is `initialDelay × multiplier^(n − 1)`, at most `maxDelay`,
/// less a random share of up to `jitter` of it. An error that says it is not transient
/// (``RetryableError/isTransient``), a `CancellationError`, and any error once the query is
/// cancelled end the attempts at once.
///
/// Every setting is clamped, so that no policy can trap: delays are at least zero and at most
/// 100 years (a wait that long never ends), the multiplier is at least 1, and the jitter and
/// each number `random` returns count as the nearest of 0 and 1 (NaN as 0). The clamps apply
/// to settings changed after creation too.
public struct RetryPolicy: Sendable {
    /// How many times the query runs at most, the first run included.
    public var maxAttempts: Int
    /// The wait after the first failure.
    public var initialDelay: Duration
    /// What each further wait is multiplied by.
    public var multiplier: Double
    /// The longest wait.
    public var maxDelay: Duration
    /// The largest share of a wait (0 to 1) taken off at random, so that many clients failing
    /// together do not retry together.
    public var jitter: Double
    /// A number in `0..<1` for the jitter; injectable so that tests are deterministic.
    public var random: @Sendable () -> Double

    /// Creates a policy.
    /// - Parameters:
    ///   - maxAttempts: How many times the query runs at most, the first run included (at least 1).
    ///   - initialDelay: The wait after the first failure (default 100 ms; 0 to 100 years).
    ///   - multiplier: What each further wait is multiplied by (default 2; at least 1, NaN counts
    ///     as 1, and a product past `maxDelay` is `maxDelay`).
    ///   - maxDelay: The longest wait (default 5 s; 0 to 100 years).
    ///   - jitter: The largest share of a wait taken off at random, 0 to 1 (default 0: none; NaN
    ///     counts as 0).
    ///   - random: A number in `0..<1` for the jitter (default `Double.random(in: 0..<1)`; NaN
    ///     counts as 0, and a number outside 0 to 1 as the nearest of them).
    public init(
        maxAttempts: Int = 3,
        initialDelay: Duration = .milliseconds(100),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(5),
        jitter: Double = 0,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = initialDelay.clampedWait
        self.multiplier = Self.factor(multiplier)
        self.maxDelay = maxDelay.clampedWait
        self.jitter = Self.share(jitter)
        self.random = random
    }

    /// The wait after the `attempt`-th failed attempt (1 for the first).
    public func delay(afterAttempt attempt: Int) -> Duration {
        let ceiling = maxDelay.clampedWait
        var delay = min(initialDelay.clampedWait, ceiling)
        if attempt > 1 {
            delay = delay.scaled(by: Self.power(Self.factor(multiplier), attempt - 1), atMost: ceiling)
        }
        let jitter = Self.share(jitter)
        if jitter > 0 {
            delay = delay.scaled(by: 1 - Self.share(random()) * jitter, atMost: delay)
        }
        return delay
    }

    /// A multiplier as it is used: at least 1, NaN as 1.
    private static func factor(_ multiplier: Double) -> Double {
        multiplier.isNaN ? 1 : max(1, multiplier)
    }

    /// A share as it is used: 0 to 1, NaN as 0.
    private static func share(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }

    /// `base` (at least 1) to the power `exponent` (at least 1), by squaring: no more steps than
    /// the exponent has bits, and infinity rather than a trap when it overflows.
    private static func power(_ base: Double, _ exponent: Int) -> Double {
        var (result, base, exponent) = (1.0, base, exponent)
        while exponent > 0, result.isFinite {
            if exponent & 1 == 1 { result *= base }
            base *= base
            exponent >>= 1
        }
        return result
    }

    /// Whether a run that failed with `error` after `attempt` attempts is tried again.
    func shouldRetry(_ error: any Error, afterAttempt attempt: Int) -> Bool {
        if attempt >= maxAttempts || Task.isCancelled || error is CancellationError { return false }
        if error is any AnyPromise || error is SuspenseError { return false }
        if let retryable = error as? any RetryableError { return retryable.isTransient }
        return true
    }

    /// Runs `query` under this policy, waiting on `clock` between attempts; `willRetry` hears of
    /// each attempt to come (its number, from 2) before the wait for it.
    func run<Value>(
        sleepingOn clock: RenderClock,
        willRetry: (Int) -> Void = { _ in },
        _ query: @Sendable () async throws -> Value
    ) async throws -> Value {
        var attempt = 1
        while true {
            do {
                return try await query()
            } catch {
                guard shouldRetry(error, afterAttempt: attempt) else { throw error }
                willRetry(attempt + 1)
                try await clock.sleep(for: delay(afterAttempt: attempt))
                attempt += 1
            }
        }
    }
}

/// An error that says whether trying again may succeed: a ``RetryPolicy`` never tries again
/// after an error whose `isTransient` is false. Errors that do not conform are tried again.
///
/// ```swift
/// enum APIError: RetryableError {
///     case unavailable, notFound
///     var isTransient: Bool { self == .unavailable }
/// }
/// ```
public protocol RetryableError: Error {
    /// Whether the same request may succeed if tried again.
    var isTransient: Bool { get }
}

/// A policy with the render's clock its backoff waits on: how the query of a promise thrown by
/// ``resolveValue(key:retry:query:)`` is tried again, and a stubbed outcome standing for it. A
/// class, so that it adds one reference to every promise, not a policy and a clock.
final class RetryRun: Sendable {
    let policy: RetryPolicy
    let clock: RenderClock
    /// The query's key, for `listener`.
    let key: String
    /// Who hears of each attempt to come: the live terminal's status line, when the render
    /// that made this run draws one.
    let listener: RetryListener?

    init(policy: RetryPolicy, clock: RenderClock, key: String, listener: RetryListener? = RetryListener.current) {
        self.policy = policy
        self.clock = clock
        self.key = key
        self.listener = listener
    }

    /// Runs `query` under the policy.
    func run<Value>(_ query: @Sendable () async throws -> Value) async throws -> Value {
        try await policy.run(
            sleepingOn: clock,
            willRetry: { [key, listener, maxAttempts = policy.maxAttempts] attempt in
                listener?.willRetry(key, attempt, maxAttempts)
            }, query)
    }
}

/// ``resolveValue(key:query:)``, with failed runs tried again under `retry`, waiting on the
/// render's clock between attempts. The component shows its ``Suspense``'s fallback while it
/// waits; only the last failure is stored and reaches the ``ErrorBoundary``. A failure stubbed
/// for the key (`QueryCache.stub(_:for:)`) is tried again in the same way, failing each time.
/// - Parameters:
///   - key: Identifies the query's result in the cache.
///   - retry: How often, and after what waits, a failed run is tried again.
///   - query: Loads the value.
public func resolveValue<Value: Sendable>(
    key: String,
    retry: RetryPolicy,
    query: @escaping @Sendable () async throws -> Value
) throws -> Value {
    let run = RetryRun(
        policy: retry, clock: RenderScope.current?.clock ?? RenderClock(ContinuousClock()), key: key)
    do {
        return try resolveValue(key: key) { try await run.run(query) }
    } catch let promise as Promise<Value> {
        // Carries its policy, so that a stub standing for the query is tried again the same way.
        var retried = promise
        retried.retry = run
        throw retried
    }
}
