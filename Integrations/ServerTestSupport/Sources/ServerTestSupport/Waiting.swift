/// The first element of `sequence`, or a failure after `limit`.
public func first<S: AsyncSequence & Sendable>(
    of sequence: S, within limit: Duration, _ what: String
) async throws -> S.Element? where S.Element: Sendable {
    try await withThrowingTaskGroup(of: S.Element?.self) { group in
        group.addTask {
            var iterator = sequence.makeAsyncIterator()
            return try await iterator.next()
        }
        group.addTask {
            try await Task.sleep(for: limit)
            throw TestFailure("deadline exceeded waiting for \(what)")
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
}

/// Polls `condition` until it holds; fails instead of hanging after `seconds`.
public func waitUntil(_ what: String, seconds: Double = 30, _ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if ContinuousClock.now > deadline { throw TestFailure("deadline exceeded waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(2))
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
