import DashboardPage
import DashboardRoutes
import Hummingbird
import SuspenseKit
import SuspenseKitHummingbird
import Synchronization
import Testing

/// Queries that answer only when the test opens their gate; counts runs, finishes and
/// cancellations.
final class Gates: Sendable {
    private let opened = Mutex(Set<String>())
    private let cancelledKeys = Mutex(Set<String>())
    let finished = Atomic<Int>(0)
    let cancelled = Atomic<Int>(0)

    func open(_ key: String) { opened.withLock { _ = $0.insert(key) } }
    func wasCancelled(_ key: String) -> Bool { cancelledKeys.withLock { $0.contains(key) } }

    func value(_ key: String) async throws -> String {
        do {
            while !opened.withLock({ $0.contains(key) }) { try await Task.sleep(for: .milliseconds(1)) }
        } catch {
            cancelledKeys.withLock { _ = $0.insert(key) }
            cancelled.add(1, ordering: .sequentiallyConsistent)
            throw error
        }
        finished.add(1, ordering: .sequentiallyConsistent)
        return "\(key) loaded"
    }
}

struct Gated: Component {
    let value: String
    init(_ key: String, gates: Gates) throws {
        value = try resolveValue(key: key) { try await gates.value(key) }
    }
    var body: some Component { Element("p") { Text(value) } }
}

struct SlowPage: Component {
    let gates: Gates
    let keys: [String]
    var body: some Component {
        Element("html") {
            Element("body") {
                Element("h1") { Text("Shell") }
                ForEach(keys) { key in
                    Suspense {
                        try Gated(key, gates: gates)
                    } fallback: {
                        Text("waiting for \(key)")
                    }
                }
            }
        }
    }
}

struct ShellFailure: Error, CustomStringConvertible {
    var description: String { "the <database> is down" }
}

struct FailingCard: Component {
    init() throws {
        let _: String = try resolveValue(key: "shell") {
            await Task.yield()
            throw ShellFailure()
        }
    }
    var body: some Component { Text("never") }
}

/// A page whose shell fails: a query outside every Suspense fails, and no ErrorBoundary is there.
struct FailingShell: Component {
    var body: some Component {
        try Element("main") { try FailingCard() }
    }
}

@Suite struct StreamedComponentTests {
    @Test func theShellReachesTheClientBeforeTheSlowestQueryHasFinished() async throws {
        let gates = Gates()
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["slow"])) }
        try await withServer(router) { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitFor("waiting for slow")
            // The shell is at the client while the query still waits on its closed gate.
            #expect(gates.finished.load(ordering: .sequentiallyConsistent) == 0)
            #expect(client.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(client.text.lowercased().contains("content-type: text/html; charset=utf-8\r\n"))
            #expect(client.text.lowercased().contains("transfer-encoding: chunked\r\n"))
            #expect(!client.text.contains("slow loaded"))
            gates.open("slow")
            try await client.waitForEnd()
            let body = client.chunkedBody
            #expect(body.contains("<template id=\"sk:0.0.1.0.0\"><p>slow loaded</p></template>"))
            #expect(body.hasPrefix("<html><body><h1>Shell</h1><!--sk:0.0.1.0.0-->waiting for slow<!--/sk:0.0.1.0.0-->"))
            #expect(body.hasSuffix("</body></html>"))
        }
    }

    @Test func anErrorInTheShellBecomesTheErrorPage() async throws {
        let router = Router()
        router.get("/default") { _, _ in await StreamedComponent(FailingShell()) }
        router.get("/custom") { _, _ in
            await StreamedComponent(FailingShell()) { error in
                Response(status: .serviceUnavailable, body: ResponseBody(byteBuffer: ByteBuffer(string: "sorry")))
            }
        }
        try await withServer(router) { port in
            let client = try RawHTTPClient(port: port, path: "/default")
            try await client.waitForEnd()
            #expect(client.text.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
            #expect(
                client.text.contains(
                    "<pre>uncaught error in FailingShell &gt; FailingCard: the &lt;database&gt; is down</pre>"))
            let custom = try RawHTTPClient(port: port, path: "/custom")
            try await custom.waitForEnd()
            #expect(custom.text.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
            #expect(custom.text.hasSuffix("sorry"))
        }
    }

    @Test func theDashboardServerServesEveryCard() async throws {
        let router = makeDashboardRouter(latencies: Latencies().scaled(by: 0.05))
        try await withServer(router) { port in
            for path in ["/", "/in-order", "/whole"] {
                let client = try RawHTTPClient(port: port, path: path)
                try await client.waitForEnd()
                let page = path == "/whole" ? client.text : client.chunkedBody
                for text in [
                    "<p>1204</p>", "<p>37</p>", "No open tasks.",
                    "Could not load alerts: the alerting service is unavailable",
                    "Ship it &amp; see &lt;what&gt; happens!",
                ] {
                    #expect(page.contains(text), "\(path) lacks \(text)")
                }
                #expect(page.hasSuffix("</body></html>"), "\(path)")
                if path == "/in-order" { #expect(!page.contains("<script")) }
            }
        }
    }

    @Test func aClientThatLeavesCancelsTheRendersQueries() async throws {
        let gates = Gates()
        let keys = ["a1", "a2", "a3", "a4", "a5", "never"]
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: keys)) }
        try await withServer(router) { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitFor("waiting for never")
            client.disconnect()
            // The server notices at its next write: each opened gate makes one chunk.
            for key in keys.dropLast() where gates.cancelled.load(ordering: .sequentiallyConsistent) == 0 {
                gates.open(key)
                try? await waitUntil("a cancellation", seconds: 2) {
                    gates.cancelled.load(ordering: .sequentiallyConsistent) > 0
                }
            }
            try await waitUntil("the query that never ends to be cancelled", seconds: 10) {
                gates.wasCancelled("never")
            }
            // Only queries whose gate stayed closed were cancelled.
            #expect(
                gates.finished.load(ordering: .sequentiallyConsistent)
                    + gates.cancelled.load(ordering: .sequentiallyConsistent) == keys.count)
        }
    }
}
