import SuspenseTesting
import Testing

@testable import SuspenseKit

/// A source that fails its first `failures` calls, then answers; counts its calls.
final class Flaky: Sendable {
    let calls = Counter()
    let failures: Int
    let error: any Error & Sendable

    init(failures: Int, error: any Error & Sendable = TestFailure("unavailable")) {
        self.failures = failures
        self.error = error
    }

    func value() throws -> String {
        let call = calls.increment()
        if call <= failures { throw error }
        return "loaded after \(call) calls"
    }
}

struct NotFound: RetryableError, Equatable {
    var isTransient: Bool { false }
}

/// Shows the value `flaky` gives, its query retried by `policy`.
struct RetriedFeed: Component {
    let value: String
    init(flaky: Flaky, policy: RetryPolicy) throws {
        value = try resolveValue(key: "feed", retry: policy) { try flaky.value() }
    }
    var body: some Component { Text(value) }
}

/// A retried feed in an ErrorBoundary and a Suspense.
struct RetriedPage: Component {
    let flaky: Flaky
    let policy: RetryPolicy
    var body: some Component {
        ErrorBoundary {
            Suspense {
                try RetriedFeed(flaky: flaky, policy: policy)
            } fallback: {
                Text("Loading…")
            }
        } fallback: { error in
            Text("failed: \(error)")
        }
    }
}
