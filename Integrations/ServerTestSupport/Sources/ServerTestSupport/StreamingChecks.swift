import Testing

/// What a test of a streaming server checks from the client's side, the same whatever the
/// framework: each integration's test serves the route a check names on a real server, then
/// hands the check its port. Each check reads with a `RawHTTPClient` and records its
/// expectations in the running test.
public enum StreamingChecks {
    /// The whole first chunk of `SlowPage(gates:keys: [key])`: the shell, its fallback in place.
    public static func shell(of key: String) -> String {
        "<!DOCTYPE html><html><body><h1>Shell</h1><!--sk:0.0.1.0.0-->waiting for \(key)<!--/sk:0.0.1.0.0-->"
    }

    /// Route `/`: `SlowPage(gates: gates, keys: ["slow"])`, the gate closed. The shell reaches the
    /// client while the query waits; once its gate opens, the rest follows and the page ends.
    public static func shellBeforeTheSlowQuery(port: Int, gates: Gates) async throws {
        let client = try RawHTTPClient(port: port, path: "/")
        try await client.waitFor("waiting for slow")
        // The shell is at the client while the query still waits on its closed gate.
        #expect(!gates.hasFinished("slow"))
        #expect(client.status == 200)
        #expect(client.header("Content-Type") == "text/html; charset=utf-8")
        #expect(client.header("Transfer-Encoding") == "chunked")
        #expect(client.header("Content-Length") == nil)
        let shell = try #require(client.chunks.data.first)
        #expect(shell == Self.shell(of: "slow"))
        #expect(!client.body.contains("slow loaded"))

        gates.open("slow")
        try await client.waitForEnd()
        #expect(gates.hasFinished("slow"))
        #expect(client.chunks.complete)
        let body = client.body
        #expect(body.contains("<template><p>slow loaded</p></template><script>"))
        #expect(body.hasPrefix(shell))
        #expect(body.hasSuffix("</body></html>"))
    }

    /// Route `/`: `SlowPage(gates: gates, keys: ["slow"])`, the gate open. A client that keeps
    /// its connection open gets the whole page.
    public static func wholePageOnAKeptAliveConnection(port: Int) async throws {
        let client = try RawHTTPClient(port: port, path: "/", keepAlive: true)
        try await waitUntil("the last chunk") { client.chunks.complete }
        #expect(client.status == 200)
        #expect(client.body.contains("slow loaded"))
        #expect(client.body.hasSuffix("</body></html>"))
    }

    /// Route `/`: `SlowPage(gates: gates, keys: ["a"])` with `StreamOptions(nonce: "n0nce")`,
    /// status 202 and headers `Cache-Control: no-store` and `Content-Type: text/plain`.
    public static func statusHeadersAndNonceGiven(port: Int, gates: Gates) async throws {
        let client = try RawHTTPClient(port: port, path: "/")
        try await client.waitFor("waiting for a")
        gates.open("a")
        try await client.waitForEnd()
        #expect(client.status == 202)
        #expect(client.header("Cache-Control") == "no-store")
        #expect(client.header("Content-Type") == "text/html; charset=utf-8")
        #expect(client.body.contains("<script nonce=\"n0nce\">"))
        #expect(client.chunks.complete)
    }

    /// Route `/products/:id`: `ProductPage(id:gates:)`. The tree decides each response's head
    /// before the shell is sent: a missing product is a 404 with its header, an old one a 303
    /// to its new address, and the 410 declared inside the Suspense still waiting at the shell is
    /// withdrawn (200); revealed later, it changes nothing that was sent.
    public static func theTreeDecidesStatusHeadersAndRedirects(port: Int, gates: Gates) async throws {
        let missing = try RawHTTPClient(port: port, path: "/products/missing")
        try await missing.waitFor("waiting for late")
        #expect(missing.status == 404)
        #expect(missing.header("Cache-Control") == "no-store")
        #expect(missing.body.contains("No such product"))

        let old = try RawHTTPClient(port: port, path: "/products/old")
        try await old.waitForEnd()
        #expect(old.status == 303)
        #expect(old.header("Location") == "/products/new")
        #expect(!old.body.contains("Moved"))

        let product = try RawHTTPClient(port: port, path: "/products/7")
        try await product.waitFor("waiting for late")
        #expect(product.status == 200)
        #expect(product.header("Cache-Control") == nil)
        gates.open("late")
        try await product.waitForEnd()
        try await missing.waitForEnd()
        #expect(product.body.contains("late loaded"))
        #expect(product.chunks.complete)
        #expect(missing.status == 404)
    }

    /// Route `/`: `SlowPage(gates: gates, keys: ["slow"])` with a deadline of 100 ms, the gate
    /// never opened. The deadline ends the page with the fallback in place.
    public static func theDeadlineEndsThePage(port: Int, gates: Gates) async throws {
        let client = try RawHTTPClient(port: port, path: "/")
        try await client.waitForEnd()
        #expect(client.status == 200)
        #expect(client.chunks.complete)
        #expect(client.body.contains("waiting for slow"))
        #expect(!client.body.contains("slow loaded"))
        #expect(client.body.hasSuffix("</body></html>"))
        try await waitUntil("the query to be cancelled") { gates.wasCancelled("slow") }
    }

    /// Route `/`: `FailingShell()` with no shell-error handler. The client gets the default 500
    /// page, which does not show the error; `errors()`, what the server logged as errors, has it.
    public static func theDefaultErrorPage(port: Int, errors: @Sendable () -> [String]) async throws {
        let client = try RawHTTPClient(port: port, path: "/")
        try await client.waitForEnd()
        #expect(client.status == 500)
        #expect(client.header("Content-Type") == "text/html; charset=utf-8")
        #expect(client.body.contains("<h1>Server error</h1>"))
        // The error reaches the log, not the client.
        #expect(!client.body.contains("database"))
        let errors = errors()
        #expect(errors.contains { $0.contains("FailingCard") && $0.contains("the <database> is down") }, "\(errors)")
    }

    /// Route `/`: `SlowPage(gates: gates, keys: ["late"])`. Its query fails after the shell: the
    /// page still ends properly, the error is logged (`errors()`), and the server goes on serving.
    public static func aLateErrorEndsThePage(port: Int, gates: Gates, errors: @Sendable () -> [String]) async throws {
        struct LateFailure: Error, CustomStringConvertible {
            var description: String { "the late query failed" }
        }
        let client = try RawHTTPClient(port: port, path: "/")
        try await client.waitFor("waiting for late")
        gates.open("late", with: .failure(LateFailure()))
        try await client.waitForEnd()
        #expect(client.status == 200)
        #expect(client.chunks.complete)
        #expect(client.body.hasSuffix("</body></html>"))
        let errors = errors()
        #expect(errors.contains { $0.contains("the late query failed") }, "\(errors)")
        // The server goes on serving.
        gates.open("late", with: .value("late loaded"))
        let next = try RawHTTPClient(port: port, path: "/")
        try await next.waitForEnd()
        #expect(next.body.contains("late loaded"))
    }

    /// Route `/`: `SlowPage(gates: gates, keys: ["first", "never"])`. A client that leaves after
    /// the shell gets the render's queries cancelled once the next chunk is written.
    public static func leavingCancelsTheQueries(port: Int, gates: Gates) async throws {
        let client = try RawHTTPClient(port: port, path: "/")
        try await client.waitFor("waiting for never")
        client.disconnect()
        try await client.waitForEnd()
        // A server learns of a closed connection when a write fails: the next chunk, or at the
        // latest the next probe, finds it.
        gates.open("first")
        try await waitUntil("the query to be cancelled", seconds: 10) { gates.wasCancelled("never") }
        #expect(!gates.hasFinished("never"))
    }

    /// Route `/`: `GatedShellPage(gates: gates)`. A client that leaves while the shell waits gets
    /// the render stopped at the first write after the shell: the shell's query runs to its end.
    public static func leavingBeforeTheShellCancelsOnceItIsReady(port: Int, gates: Gates) async throws {
        let client = try RawHTTPClient(port: port, path: "/")
        try await waitUntil("the shell's query to start") { gates.isWaiting("shell") }
        client.disconnect()
        try await client.waitForEnd()
        gates.open("shell")
        try await waitUntil("the query to be cancelled", seconds: 10) { gates.wasCancelled("never") }
        #expect(gates.hasFinished("shell"))
        #expect(!gates.hasFinished("never"))
    }

    /// Route `/`: `SlowPage(gates: gates, keys: ["a"])`, the gate open. Three requests one after
    /// another on one kept-alive connection get three complete pages, and it stays open.
    public static func threeRequestsOnOneConnection(port: Int) async throws {
        let client = try RawHTTPClient(port: port, path: "/", keepAlive: true)
        for count in 1...3 {
            if count > 1 { try client.send(path: "/") }
            try await waitUntil("page \(count) to be complete") {
                client.responses.count == count && client.responses.allSatisfy(\.complete)
            }
        }
        let responses = client.responses
        #expect(responses.map(\.status) == [200, 200, 200])
        for response in responses {
            #expect(response.body.hasPrefix("<!DOCTYPE html><html><body><h1>Shell</h1>"))
            #expect(response.body.contains("a loaded"))
            #expect(response.body.hasSuffix("</body></html>"))
        }
        #expect(!client.isEnded)
    }

    /// Route `/`: `SlowPage(gates: gates, keys: ["a"])`, the gate closed. 200 concurrent clients
    /// each get the shell while the query waits, then all the same whole page.
    public static func twoHundredConcurrentRequests(port: Int, gates: Gates) async throws {
        let clients = try (0..<200).map { _ in try RawHTTPClient(port: port, path: "/") }
        for client in clients { try await client.waitFor("waiting for a") }
        gates.open("a")
        for client in clients { try await client.waitForEnd() }
        let bodies = Set(clients.map(\.body))
        #expect(bodies.count == 1)
        let body = try #require(bodies.first)
        #expect(body.contains("<template><p>a loaded</p></template><script>"))
        #expect(body.hasPrefix(Self.shell(of: "a")))
        #expect(body.hasSuffix("</body></html>"))
        #expect(clients.allSatisfy { $0.status == 200 && $0.chunks.complete })
    }

    /// What every Dashboard card shows once loaded.
    static let dashboardCards = [
        "<p>1204</p>", "<p>37</p>", "No open tasks.",
        "Could not load alerts: the alerting service is unavailable",
        "Ship it &amp; see &lt;what&gt; happens!",
    ]

    /// The example `DashboardServer`'s routes: `path` (`/`, `/in-order` or `/whole`) serves every
    /// card, streamed out of order, in order with no script, or whole with its length.
    public static func everyDashboardCardArrives(port: Int, path: String) async throws {
        let client = try RawHTTPClient(port: port, path: path)
        try await client.waitForEnd()
        #expect(client.status == 200)
        #expect(client.header("Content-Type") == "text/html; charset=utf-8")
        let page = client.body
        for text in dashboardCards {
            #expect(page.contains(text), "\(path) lacks \(text)")
        }
        #expect(page.hasPrefix("<!DOCTYPE html><html lang=\"en\">"))
        #expect(page.hasSuffix("</body></html>"))
        switch path {
        case "/":
            #expect(client.chunks.complete)
            #expect(client.chunks.data.count > 1)
            #expect(page.contains("<template><section"))
        case "/in-order":
            #expect(client.chunks.complete)
            #expect(!page.contains("<script"))
            #expect(!page.contains("Loading…"))
        default:
            #expect(client.header("Content-Length") == "\(page.utf8.count)")
        }
    }
}
