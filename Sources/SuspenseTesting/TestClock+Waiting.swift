/// Waiting for sleepers, bounded in real time: a sleeper that never comes fails the test with
/// what was expected and what is armed, instead of hanging the test run.
extension TestClock {
    /// What a wait for sleepers ended with.
    enum WaitOutcome: Sendable {
        case satisfied
        /// The waiting task was cancelled (by a test's time limit, say).
        case cancelled
        /// The wait timed out; the instants armed then, as offsets.
        case timedOut(armed: [Duration])
    }

    /// A test waiting for sleepers: what it waits for, checked with the lock held.
    struct Watcher {
        let isSatisfied: ([Int: Sleeper]) -> Bool
        let continuation: CheckedContinuation<WaitOutcome, Never>
    }

    /// Where a wait was called, to report its failure there.
    struct CallSite {
        let fileID: StaticString
        let filePath: StaticString
        let line: UInt
        let column: UInt
    }

    /// The longest real time a wait lasts: a longer timeout is this one.
    private static let longestTimeout = Duration.seconds(365 * 86_400)

    /// Waits until at least `count` tasks are sleeping on the clock: a render has armed its
    /// timers, or a retried query has begun its backoff.
    ///
    /// When they have not come within `timeout` of real time, the running test (Swift Testing
    /// or XCTest) fails at the call site with what was expected and what is armed, such as
    /// "expected 2 sleepers within 5 s; armed: 0.5 s", and the wait returns `false`. It also
    /// returns `false`, without a failure, when the waiting task is cancelled. The default is a
    /// minute: a suite that runs its tests in parallel on two cores can hold every thread of the
    /// pool for seconds, and a wait must not fail a render that was only slow to be scheduled.
    /// - Parameters:
    ///   - count: How many sleepers to wait for (default 1).
    ///   - timeout: How long to wait in real time, 0 to a year (default 60 s).
    ///   - fileID: The caller's file ID, where a failure is reported.
    ///   - filePath: The caller's file path, where a failure is reported.
    ///   - line: The caller's line, where a failure is reported.
    ///   - column: The caller's column, where a failure is reported.
    /// - Returns: Whether the sleepers came.
    @discardableResult
    public func waitForSleepers(
        _ count: Int = 1,
        timeout: Duration = .seconds(60),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Bool {
        await waitUntil(
            count == 1 ? "a sleeper" : "\(count) sleepers", timeout: timeout,
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        ) { $0.count >= count }
    }

    /// Waits until a task sleeps until `offset` after the clock's creation: the one sleeper a
    /// test means, when others come and go (a timer cancelled as its boundary resolves).
    ///
    /// ```swift
    /// await clock.waitForSleeper(dueAt: .milliseconds(200))   // the first backoff
    /// clock.advance(by: .milliseconds(200))
    /// await clock.waitForSleeper(dueAt: .milliseconds(600))   // the second, 400 ms later
    /// ```
    ///
    /// Bounded like ``waitForSleepers(_:timeout:fileID:filePath:line:column:)``: past `timeout`
    /// the test fails with, say, "expected a sleeper due at 2 s within 5 s; armed: 0.5 s, 1 s",
    /// and the wait returns `false`.
    /// - Parameters:
    ///   - offset: The instant the sleeper waits for, as the time since the clock's creation.
    ///   - timeout: How long to wait in real time, 0 to a year (default 60 s).
    ///   - fileID: The caller's file ID, where a failure is reported.
    ///   - filePath: The caller's file path, where a failure is reported.
    ///   - line: The caller's line, where a failure is reported.
    ///   - column: The caller's column, where a failure is reported.
    /// - Returns: Whether the sleeper came.
    @discardableResult
    public func waitForSleeper(
        dueAt offset: Duration,
        timeout: Duration = .seconds(60),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Bool {
        await waitUntil(
            "a sleeper due at \(Self.describe(offset))", timeout: timeout,
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        ) { sleepers in sleepers.values.contains { $0.deadline.offset == offset } }
    }

    private func waitUntil(
        _ expected: String,
        timeout: Duration,
        at site: CallSite,
        _ isSatisfied: @escaping ([Int: Sleeper]) -> Bool
    ) async -> Bool {
        let id: Int = locked {
            nextWatcher += 1
            return nextWatcher
        }
        let limit = min(max(timeout, .zero), Self.longestTimeout)
        var timer: Task<Void, Never>?
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WaitOutcome, Never>) in
                let ready: WaitOutcome? = locked {
                    if isSatisfied(sleepers) { return .satisfied }
                    if Task.isCancelled { return .cancelled }
                    watchers[id] = Watcher(isSatisfied: isSatisfied, continuation: continuation)
                    return nil
                }
                if let ready { return continuation.resume(returning: ready) }
                // Armed once the watcher is in place, so that it always finds it.
                timer = Task.detached { [self] in
                    do {
                        try await Task.sleep(for: limit)
                    } catch {
                        return
                    }
                    expire(id)
                }
            }
        } onCancel: {
            let watcher = locked { watchers.removeValue(forKey: id) }
            watcher?.continuation.resume(returning: .cancelled)
        }
        timer?.cancel()
        switch outcome {
        case .satisfied:
            return true
        case .cancelled:
            return false
        case .timedOut(let armed):
            let list = armed.isEmpty ? "none" : armed.map(Self.describe).joined(separator: ", ")
            FailureReporter.fail(
                "expected \(expected) within \(Self.describe(limit)); armed: \(list)",
                fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
            return false
        }
    }

    /// The wait `id` timed out, unless it ended already: tells it what is armed now.
    private func expire(_ id: Int) {
        let (watcher, armed) = locked {
            (watchers.removeValue(forKey: id), sleepers.values.map(\.deadline.offset).sorted())
        }
        watcher?.continuation.resume(returning: .timedOut(armed: armed))
    }

    /// The watchers now satisfied, taken out; called with the lock held.
    func takeSatisfiedWatchers() -> [Watcher] {
        let satisfied = watchers.filter { $0.value.isSatisfied(sleepers) }
        for id in satisfied.keys { watchers[id] = nil }
        return Array(satisfied.values)
    }

    /// `duration` in seconds for a failure message: "0.5 s", "2 s".
    static func describe(_ duration: Duration) -> String {
        if duration < .zero { return "-" + describe(.zero - duration) }
        // Past what its components hold: as a Double.
        guard duration <= .seconds(Int64.max) else { return "\(duration / .seconds(1)) s" }
        let (seconds, attoseconds) = duration.components
        guard attoseconds != 0 else { return "\(seconds) s" }
        var fraction = String(attoseconds)
        fraction = String(repeating: "0", count: 18 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(seconds).\(fraction) s"
    }
}
