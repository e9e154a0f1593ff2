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

