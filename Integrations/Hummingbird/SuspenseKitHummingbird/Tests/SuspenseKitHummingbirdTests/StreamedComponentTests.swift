import Hummingbird
import ServerTestLogging
import ServerTestSupport
import SuspenseKit
import Testing

@testable import SuspenseKitHummingbird

/// `StreamedComponent` on a real server, read by a raw TCP client that sees each part of the
/// response as it arrives. Queries wait on gates the tests open; every wait has a deadline.
@Suite(.timeLimit(.minutes(2)))
struct StreamedComponentTests {
    @Test func theShellReachesTheClientWhileTheSlowQueryWaitsThenTheRestFollows() async throws {
        let gates = Gates()
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["slow"])) }
        try await withServer(router) { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitFor("waiting for slow")
            // The shell is at the client while the query still waits on its closed gate.
            #expect(!gates.hasFinished("slow"))
            #expect(client.status == 200)
            #expect(client.header("Content-Type") == "text/html; charset=utf-8")
            #expect(client.header("Transfer-Encoding") == "chunked")
            #expect(client.header("Content-Length") == nil)
            let shell = try #require(client.chunks.data.first)
            #expect(
                shell
                    == "<!DOCTYPE html><html><body><h1>Shell</h1><!--sk:0.0.1.0.0-->waiting for slow<!--/sk:0.0.1.0.0-->"
            )
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
    }

    @Test func aClientKeepingTheConnectionOpenGetsTheWholePage() async throws {
        let gates = Gates()
        gates.open("slow")
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["slow"])) }
        try await withServer(router) { port in
            let client = try RawHTTPClient(port: port, path: "/", keepAlive: true)
            try await waitUntil("the last chunk") { client.chunks.complete }
            #expect(client.status == 200)
            #expect(client.body.contains("slow loaded"))
            #expect(client.body.hasSuffix("</body></html>"))
        }
    }

    @Test func statusHeadersAndOptionsAreThoseGiven() async throws {
        let gates = Gates()
        let router = Router()
        router.get("/") { _, _ in
            await StreamedComponent(
                SlowPage(gates: gates, keys: ["a"]),
                stream: StreamOptions(nonce: "n0nce"),
                status: .accepted,
                headers: [.cacheControl: "no-store", .contentType: "text/plain"]
            )
        }
        try await withServer(router) { port in
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
    }

    @Test func theRenderOptionsReachTheRender() async throws {
        let gates = Gates()
        let router = Router()
        router.get("/") { _, _ in
            // The gate never opens: the deadline ends the page with the fallback in place.
            await StreamedComponent(
                SlowPage(gates: gates, keys: ["slow"]), options: RenderOptions(deadline: .milliseconds(100)))
        }
        try await withServer(router) { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitForEnd()
            #expect(client.status == 200)
            #expect(client.chunks.complete)
            #expect(client.body.contains("waiting for slow"))
            #expect(!client.body.contains("slow loaded"))
            #expect(client.body.hasSuffix("</body></html>"))
            try await waitUntil("the query to be cancelled") { gates.wasCancelled("slow") }
        }
    }

    @Test func anErrorInTheShellGivesTheDefaultErrorPageAndIsLogged() async throws {
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(FailingShell()) }
        let log = LogRecorder()
        try await withServer(router, log: log) { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitForEnd()
            #expect(client.status == 500)
            #expect(client.header("Content-Type") == "text/html; charset=utf-8")
            #expect(client.body.contains("<h1>Server error</h1>"))
            // The error reaches the log, not the client.
            #expect(!client.body.contains("database"))
            let errors = log.messages(atLeast: .error)
            #expect(
                errors.contains { $0.contains("FailingCard") && $0.contains("the <database> is down") }, "\(errors)")
        }
    }

    @Test func anErrorInTheShellGivesTheResponseOfOnShellError() async throws {
        let router = Router()
        router.get("/") { _, _ in
            await StreamedComponent(FailingShell()) { error in
                let failure = (error as? RenderError)?.underlying is ShellFailure ? "shell failure" : "\(error)"
                return Response(
                    status: .serviceUnavailable, body: ResponseBody(byteBuffer: ByteBuffer(string: failure)))
            }
        }
        try await withServer(router) { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitForEnd()
            #expect(client.status == 503)
            #expect(client.body == "shell failure")
        }
    }

    @Test func anErrorAfterTheShellEndsThePageAndIsLogged() async throws {
        struct LateFailure: Error, CustomStringConvertible {
            var description: String { "the late query failed" }
        }
        let gates = Gates()
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["late"])) }
        let log = LogRecorder()
        try await withServer(router, log: log) { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitFor("waiting for late")
            gates.open("late", with: .failure(LateFailure()))
            try await client.waitForEnd()
            #expect(client.status == 200)
            #expect(client.chunks.complete)
            #expect(client.body.hasSuffix("</body></html>"))
            let errors = log.messages(atLeast: .error)
            #expect(errors.contains { $0.contains("the late query failed") }, "\(errors)")
            // The server goes on serving.
            gates.open("late", with: .value("late loaded"))
            let next = try RawHTTPClient(port: port, path: "/")
            try await next.waitForEnd()
            #expect(next.body.contains("late loaded"))
        }
    }

    @Test func aClientThatLeavesCancelsTheRendersQueries() async throws {
        let gates = Gates()
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["first", "never"])) }
        try await withServer(router) { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitFor("waiting for never")
            client.disconnect()
            try await client.waitForEnd()
            // The next chunk meets the closed socket; its reset closes the connection, which the
            // next write, at the latest the next probe, finds.
            gates.open("first")
            try await waitUntil("the query to be cancelled", seconds: 10) { gates.wasCancelled("never") }
            #expect(!gates.hasFinished("never"))
        }
    }

    @Test func aClientThatLeavesBeforeTheShellCancelsTheRenderOnceTheShellIsReady() async throws {
        let gates = Gates()
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(GatedShellPage(gates: gates)) }
        try await withServer(router) { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await waitUntil("the shell's query to start") { gates.isWaiting("shell") }
            client.disconnect()
            try await client.waitForEnd()
            // Hummingbird tells a handler nothing before its first write: the shell's query
            // runs to its end, and the render stops at the first write that fails after it.
            gates.open("shell")
            try await waitUntil("the query to be cancelled", seconds: 10) { gates.wasCancelled("never") }
            #expect(gates.hasFinished("shell"))
            #expect(!gates.hasFinished("never"))
        }
    }

    @Test func threeRequestsOnOneKeptAliveConnectionGetThreeCompletePages() async throws {
        let gates = Gates()
        gates.open("a")
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["a"])) }
        try await withServer(router) { port in
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
    }

    @Test func twoHundredConcurrentRequestsGetTheSamePage() async throws {
        let gates = Gates()
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["a"])) }
        try await withServer(router) { port in
            let clients = try (0..<200).map { _ in try RawHTTPClient(port: port, path: "/") }
            // Every shell is out while the query waits; then every page completes.
            for client in clients { try await client.waitFor("waiting for a") }
            gates.open("a")
            for client in clients { try await client.waitForEnd() }
            let bodies = Set(clients.map(\.body))
            #expect(bodies.count == 1)
            let body = try #require(bodies.first)
            #expect(body.contains("<template><p>a loaded</p></template><script>"))
            #expect(body.hasPrefix("<!DOCTYPE html><html><body><h1>Shell</h1><!--sk:0.0.1.0.0-->waiting for a"))
            #expect(body.hasSuffix("</body></html>"))
            #expect(clients.allSatisfy { $0.status == 200 && $0.chunks.complete })
        }
    }

    @Test func aRequestMadeByHandStreamsToo() async throws {
        let byHand = Router()
        byHand.add(middleware: RequestMadeByHand())
        let gates = Gates()
        gates.open("a")
        byHand.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["a"])) }
        try await withServer(byHand) { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitForEnd()
            #expect(client.status == 200)
            #expect(client.chunks.complete)
            #expect(client.body.contains("a loaded"))
        }
    }
}

/// Hands the router a new request whose body is not the connection's.
struct RequestMadeByHand: RouterMiddleware {
    func handle(
        _ request: Request, context: BasicRequestContext,
        next: (Request, BasicRequestContext) async throws -> Response
    ) async throws -> Response {
        try await next(Request(head: request.head, body: RequestBody(buffer: ByteBuffer())), context)
    }
}
