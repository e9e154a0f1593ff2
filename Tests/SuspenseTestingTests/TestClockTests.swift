import Foundation
import Testing

@testable import SuspenseTesting

/// `TestClock`: time moves only when the test says, and waiting for sleepers cannot hang.
@Suite(.timeLimit(.minutes(3)))
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

    @Test func oneAdvanceWakesSleepersInDueOrderAndThoseDueTogetherInTheOrderTheySlept() async throws {
        // In the order the tasks begin sleeping: pairs due together, begun out of due order.
        let offsets: [Duration] = [.seconds(3), .seconds(1), .seconds(2), .seconds(1), .seconds(3), .seconds(2)]
        let expected = offsets.indices.sorted { (offsets[$0], $0) < (offsets[$1], $1) }
        // Forty rounds: each one is a dozen hops through a pool that the suite's heavy tests
        // hold on two cores, so the rounds are kept few, and the first round that goes wrong
        // ends the test with its one failure rather than repeating it.
        for round in 1...40 {
            let clock = TestClock()
            let sleepers = Sleepers()
            var tasks: [Task<Void, any Error>] = []
            for (index, offset) in offsets.enumerated() {
                tasks.append(Task { try await sleepers.sleep(on: clock, until: offset, then: index) })
                guard await clock.waitForSleepers(index + 1) else {
                    Issue.record("round \(round): sleeper \(index) did not come (cancelled: \(Task.isCancelled))")
                    for task in tasks { task.cancel() }
                    return
                }
            }
            clock.advance(by: .seconds(5))
            for task in tasks { try await task.value }
            let woken = await sleepers.woken
            guard woken == expected else {
                Issue.record("round \(round): woke \(woken), expected \(expected)")
                return
            }
        }
    }

    @Test func aSleeperCancelledWhileWaitingItsTurnThrowsAndTheNextStillWakes() async throws {
        let clock = TestClock()
        let sleepers = Sleepers()
        let first = Task { try await sleepers.sleep(on: clock, until: .seconds(1), then: 0) }
        #expect(await clock.waitForSleepers(1))
        let second = Task { try await sleepers.sleep(on: clock, until: .seconds(1), then: 1) }
        #expect(await clock.waitForSleepers(2))
        let third = Task { try await sleepers.sleep(on: clock, until: .seconds(1), then: 2) }
        #expect(await clock.waitForSleepers(3))
        // The first to wake cancels the third, which is due but not woken yet.
        await sleepers.onWake(0) { third.cancel() }
        clock.advance(by: .seconds(1))
        try await first.value
        try await second.value
        await #expect(throws: CancellationError.self) { try await third.value }
        #expect(await sleepers.woken == [0, 1])
        #expect(clock.sleeperCount == 0)
    }

    @Test func waitingForASleeperDueAtAnInstantNobodySleepsUntilFailsNamingWhatIsArmed() async throws {
        let clock = TestClock()
        let early = Task { try await clock.sleep(until: .init(offset: .milliseconds(500))) }
        let late = Task { try await clock.sleep(until: .init(offset: .seconds(1))) }
        #expect(await clock.waitForSleepers(2))
        var came = true
        await withKnownIssue {
            came = await clock.waitForSleeper(dueAt: .seconds(2), timeout: .milliseconds(50))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined() == "expected a sleeper due at 2 s within 0.05 s; armed: 0.5 s, 1 s"
        }
        #expect(!came)
        early.cancel()
        late.cancel()
    }

    @Test func waitingForMoreSleepersThanComeFailsNamingWhatIsArmed() async throws {
        let clock = TestClock()
        let line = #line + 3
        var came = true
        await withKnownIssue {
            came = await clock.waitForSleepers(2, timeout: .zero)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined() == "expected 2 sleepers within 0 s; armed: none"
                && issue.sourceLocation?.line == line
        }
        #expect(!came)
    }

    @Test func durationsInFailuresAreInSeconds() {
        #expect(TestClock.describe(.milliseconds(1500)) == "1.5 s")
        #expect(TestClock.describe(.seconds(2)) == "2 s")
        #expect(TestClock.describe(.nanoseconds(1)) == "0.000000001 s")
        #expect(TestClock.describe(.milliseconds(-250)) == "-0.25 s")
    }
}

/// Tasks sleeping on a test clock while isolated to one actor, noting the order they wake in.
private actor Sleepers {
    private(set) var woken: [Int] = []
    private var actions: [Int: @Sendable () -> Void] = [:]

    func sleep(on clock: TestClock, until offset: Duration, then index: Int) async throws {
        try await clock.sleep(until: TestClock.Instant(offset: offset))
        woken.append(index)
        actions.removeValue(forKey: index)?()
    }

    /// Runs `action` when the sleeper `index` wakes, on this actor.
    func onWake(_ index: Int, _ action: @escaping @Sendable () -> Void) {
        actions[index] = action
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
