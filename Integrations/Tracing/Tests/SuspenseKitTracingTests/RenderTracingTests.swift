import InMemoryTracing
import SuspenseKit
import SuspenseKitTracing
import SuspenseTesting
import Synchronization
import Testing
import Tracing

/// Queries that answer when the test opens their gate, so that the test decides on the render's
/// test clock when each one finishes.
final class Gates: Sendable {
    private let state = Mutex<(opened: Set<String>, waiting: [String: CheckedContinuation<Void, Never>])>(([], [:]))

    func value(_ key: String) async -> String {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if state.opened.contains(key) { return true }
                state.waiting[key] = continuation
                return false
            }
            if open { continuation.resume() }
        }
        return "\(key) loaded"
    }

    func open(_ key: String) {
        let waiting = state.withLock { state in
            state.opened.insert(key)
            return state.waiting.removeValue(forKey: key)
        }
        waiting?.resume()
    }

    func isWaiting(_ key: String) -> Bool { state.withLock { $0.waiting[key] != nil } }
}

struct Gated: Component {
    let value: String
    init(_ key: String, gates: Gates) throws {
        value = try resolveValue(key: key) { await gates.value(key) }
    }
    var body: some Component { Element("p") { Text(value) } }
}

/// The shell waits on `user`; `feed` is in a Suspense (0.1).
struct Page: Component {
    let gates: Gates
    var body: some Component {
        Element("main") {
            try Gated("user", gates: gates)
            Suspense {
                try Gated("feed", gates: gates)
            } fallback: {
                Text("loading")
            }
        }
    }
}

/// Waits until `condition` holds, for at most a minute of real time.
func waitUntil(_ condition: () -> Bool) async throws {
    let clock = ContinuousClock()
    let end = clock.now + .seconds(60)
    while !condition() {
        guard clock.now < end else { throw CancellationError() }
        try await Task.sleep(for: .milliseconds(1))
    }
}

@Suite(.timeLimit(.minutes(1)))
struct RenderTracingTests {
    @Test func aRenderIsASpanUnderTheCallersWithItsShellBoundariesAndQueriesInside() async throws {
        let tracer = InMemoryTracer()
        let request = tracer.startSpan("GET /", context: .topLevel)
        let gates = Gates()
        let clock = TestClock()
        let options = RenderOptions(clock: clock).tracing(tracer, context: request.context)
        let stream = try await withThrowingTaskGroup(of: HTMLStream.self) { group in
            group.addTask { try await renderStream(Page(gates: gates), options: options) }
            try await waitUntil { gates.isWaiting("user") && gates.isWaiting("feed") }
            clock.advance(by: .milliseconds(10))
            gates.open("user")
            return try await group.next()!
        }
        var chunks = stream.makeAsyncIterator()
        _ = try await chunks.next()
        clock.advance(by: .milliseconds(30))
        gates.open("feed")
        while try await chunks.next() != nil {}
        request.end()

        let spans = tracer.finishedSpans
        let renderSpan = try #require(spans.first { $0.operationName == "suspensekit.render" })
        #expect(renderSpan.traceID == request.traceID && renderSpan.parentSpanID == request.spanID)
        let start = renderSpan.startInstant.nanosecondsSinceEpoch
        func offsets(_ span: FinishedInMemorySpan) -> (Int, Int) {
            let ms = { (instant: any TracerInstant) in Int((instant.nanosecondsSinceEpoch - start) / 1_000_000) }
            return (ms(span.startInstant), ms(span.endInstant))
        }
        #expect(offsets(renderSpan) == (0, 40))

        let shell = try #require(spans.first { $0.operationName == "suspensekit.shell" })
        #expect(shell.parentSpanID == renderSpan.spanID && offsets(shell) == (0, 10))
        let boundary = try #require(spans.first { $0.operationName == "suspensekit.boundary" })
        #expect(boundary.parentSpanID == renderSpan.spanID && offsets(boundary) == (10, 40))
        #expect(boundary.attributes["suspensekit.boundary.id"]?.toSpanAttribute() == "0.1")
        #expect(boundary.attributes["suspensekit.boundary.revealed_by"]?.toSpanAttribute() == "feed")

        let queries = spans.filter { $0.operationName == "suspensekit.query" }
        #expect(queries.count == 2)
        let user = try #require(queries.first { $0.attributes["suspensekit.query.key"]?.toSpanAttribute() == "user" })
        let feed = try #require(queries.first { $0.attributes["suspensekit.query.key"]?.toSpanAttribute() == "feed" })
        #expect(user.parentSpanID == shell.spanID && offsets(user) == (0, 10))
        #expect(feed.parentSpanID == boundary.spanID && offsets(feed) == (0, 40))
        #expect(user.attributes["suspensekit.query.cache"]?.toSpanAttribute() == "miss")
        #expect(spans.allSatisfy { $0.traceID == request.traceID })
        #expect(renderSpan.status == nil)
        // The shell waited on `user`, outside every Suspense: a diagnostic, at the shell's start.
        #expect(renderSpan.events.map(\.name) == ["suspensekit.diagnostic"])
        #expect(
            renderSpan.events.first?.attributes["suspensekit.diagnostic.code"]?.toSpanAttribute()
                == "suspendedOutsideBoundary")
    }

    @Test func aDiagnosticIsAnEventAndAFailedRenderAnErrorAndAnEarlierReportHookStillRuns() async throws {
        struct Broken: Error, CustomStringConvertible {
            var description: String { "the database is down" }
        }
        struct Failing: Component {
            init() throws {
                let _: String = try resolveValue(key: "broken") { throw Broken() }
            }
            var body: some Component { Text("never") }
        }
        let tracer = InMemoryTracer()
        let reports = Mutex(0)
        let options = RenderOptions().onReport { _ in reports.withLock { $0 += 1 } }.tracing(tracer)
        await #expect(throws: (any Error).self) { try await render(Failing(), as: .plain, options: options) }
        #expect(reports.withLock { $0 } == 1)
        let renderSpan = try #require(tracer.finishedSpans.first { $0.operationName == "suspensekit.render" })
        #expect(renderSpan.status?.code == .error)
        #expect(renderSpan.parentSpanID == nil)
        let query = try #require(tracer.finishedSpans.first { $0.operationName == "suspensekit.query" })
        #expect(query.status?.message?.contains("the database is down") == true)
    }

    @Test func aSwallowedSuspensionIsAnEventOfTheRendersSpan() async throws {
        struct Swallows: Component {
            let name: String
            init() {
                name =
                    (try? resolveValue(key: "name") { () async throws -> String in
                        await Task.yield()
                        return "Ann"
                    }) ?? "stranger"
            }
            var body: some Component { Text("Hello \(name)") }
        }
        let tracer = InMemoryTracer()
        _ = try await render(Swallows(), as: .plain, options: RenderOptions().tracing(tracer))
        let renderSpan = try #require(tracer.finishedSpans.first { $0.operationName == "suspensekit.render" })
        #expect(renderSpan.events.map(\.name) == ["suspensekit.diagnostic"])
        #expect(
            renderSpan.events.first?.attributes["suspensekit.diagnostic.code"]?.toSpanAttribute()
                == "swallowedSuspension")
    }
}
