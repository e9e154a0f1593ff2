import Foundation
import Testing

@testable import SuspenseTesting

/// `TestClock`: time moves only when the test says, and waiting for sleepers cannot hang.
@Suite(.timeLimit(.minutes(1)))
struct TestClockTests {
    @Test func aSleeperWakesOnlyWhenTheClockIsAdvancedToItsInstant() async throws {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(2))) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.offset == .seconds(2))
    }

    @Test func aSleeperWhoseInstantHasPassedReturnsAtOnce() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: TestClock.Instant(offset: .seconds(3)))
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCancelledSleeperThrowsAndLeavesTheClock() async throws {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(1))) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func waitingForSleepersThatNeverComeEndsWhenTheWaitIsCancelled() async throws {
        let clock = TestClock()
        let returned = Flag()
        let waiting = Task {
            await clock.waitForSleepers(1)
            returned.set()
        }
        // Cancelled before or while it waits: either way it returns, with no sleeper there. A
        // wait that ignored cancellation is left behind, and the test fails after ten seconds.
        waiting.cancel()
        let deadline = ContinuousClock.now + .seconds(10)
        while !returned.isSet, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(returned.isSet, "waitForSleepers did not return when its task was cancelled")
        #expect(clock.sleeperCount == 0)
    }
}

/// Set once, read from any task.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        defer { lock.unlock() }
        value = true
    }
}
