import Hummingbird
import SuspenseTesting
import Synchronization

/// A test clock for the Dashboard's simulated backends, moved over HTTP: a browser check decides
/// when each card's query answers, so it can look at the page between two answers.
///
/// Given to ``makeDashboardRouter(latencies:testClock:)``, every latency sleeps on it, and the
/// router gets two routes: `GET /clock/now` and `POST /clock/advance?ms=N`. Both answer
/// `{"now":MS,"sleepers":N}`, the clock's time and how many calls sleep on it; an advance answers
/// once every call due by the new time has woken (its query has its answer).
public final class DashboardTestClock: Sendable {
    private let clock = TestClock()
    /// The deadlines of the sleeps under way, by sleep: an advance waits until none is due.
    private let sleeping = Mutex<(next: Int, deadlines: [Int: Duration])>((0, [:]))

    /// Creates a clock at time zero.
    public init() {}

    /// The clock the latencies sleep on.
    var latencyClock: any Clock<Duration> { WatchedClock(owner: self) }

    /// The clock's time and its sleepers, as the routes answer them.
    var state: String {
        let (seconds, attoseconds) = clock.now.offset.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return #"{"now":\#(milliseconds),"sleepers":\#(clock.sleeperCount)}"#
    }

    /// Moves the clock forward and returns once every sleep due by then has woken, or after five
    /// seconds of real time (then `false`).
    func advance(by duration: Duration) async -> Bool {
        clock.advance(by: duration)
        let now = clock.now.offset
        for _ in 0..<1000 {
            if !sleeping.withLock({ $0.deadlines.values.contains { $0 <= now } }) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    /// The test clock, with each sleep noted from before it begins until it returns.
    private struct WatchedClock: Clock {
        let owner: DashboardTestClock

        var now: TestClock.Instant { owner.clock.now }
        var minimumResolution: Duration { .zero }

        func sleep(until deadline: TestClock.Instant, tolerance: Duration?) async throws {
            let id = owner.sleeping.withLock { state in
                state.next += 1
                state.deadlines[state.next] = deadline.offset
                return state.next
            }
            defer { _ = owner.sleeping.withLock { $0.deadlines.removeValue(forKey: id) } }
            try await owner.clock.sleep(until: deadline, tolerance: tolerance)
        }
    }

    /// Adds `/clock/now` and `/clock/advance?ms=N` to `router`.
    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/clock/now") { _, _ in
            Self.json(self.state)
        }
        router.post("/clock/advance") { request, _ in
            guard let value = request.uri.queryParameters.get("ms", as: Int.self), (0...3_600_000).contains(value)
            else {
                throw HTTPError(.badRequest, message: "ms takes a number of milliseconds, 0 to 3600000")
            }
            guard await self.advance(by: .milliseconds(value)) else {
                throw HTTPError(.gatewayTimeout, message: "a sleep due did not wake within 5 s")
            }
            return Self.json(self.state)
        }
    }

    private static func json(_ body: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
