import ServerTestLogging
import ServerTestSupport
import SuspenseKit
import Testing
import Vapor

@testable import SuspenseKitVapor

/// `StreamedComponent` on a real Vapor server, read by a raw TCP client that sees each part of
/// the response as it arrives. Queries wait on gates the tests open; every wait has a deadline.
@Suite(.timeLimit(.minutes(2)))
struct StreamedComponentTests {
    @Test func theShellReachesTheClientWhileTheSlowQueryWaitsThenTheRestFollows() async throws {
        let gates = Gates()
        try await withServer { app in
            app.get { _ in await StreamedComponent(SlowPage(gates: gates, keys: ["slow"])) }
        } test: { port in
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
        try await withServer { app in
            app.get { _ in await StreamedComponent(SlowPage(gates: gates, keys: ["slow"])) }
        } test: { port in
            let client = try RawHTTPClient(port: port, path: "/", keepAlive: true)
            try await waitUntil("the last chunk") { client.chunks.complete }
            #expect(client.status == 200)
            #expect(client.body.contains("slow loaded"))
            #expect(client.body.hasSuffix("</body></html>"))
        }
    }

    @Test func statusHeadersAndOptionsAreThoseGiven() async throws {
        let gates = Gates()
        try await withServer { app in
            app.get { _ in
                await StreamedComponent(
                    SlowPage(gates: gates, keys: ["a"]),
                    stream: StreamOptions(nonce: "n0nce"),
                    status: .accepted,
                    headers: ["Cache-Control": "no-store", "Content-Type": "text/plain"]
                )
            }
        } test: { port in
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

    @Test func aContentSecurityPolicyGetsAFreshNonceOnEveryScriptAndInTheHeader() async throws {
        let gates = Gates()
        try await withServer { app in
            app.get(":key") { request in
                let key = request.parameters.get("key") ?? "?"
                return await StreamedComponent(SlowPage(gates: gates, keys: [key]), contentSecurityPolicy: .nonce)
            }
        } test: { port in
            var nonces: [String] = []
            for key in ["a", "b"] {
                let client = try RawHTTPClient(port: port, path: "/\(key)")
                try await client.waitFor("waiting for \(key)")
                gates.open(key)
                try await client.waitForEnd()
                #expect(client.status == 200)
                let policy = try #require(client.header("Content-Security-Policy"))
                let nonce = try #require(policy.firstMatch(of: /'nonce-([^']+)'/)?.1)
                #expect(client.body.contains("<script nonce=\"\(nonce)\">"))
                #expect(!client.body.contains("<script>"))
                nonces.append(String(nonce))
            }
            #expect(nonces[0] != nonces[1])
        }
    }

    @Test func theHeadCarriesTheShellsTimeInServerTiming() async throws {
        let gates = Gates()
        try await withServer { app in
            app.get { _ in await StreamedComponent(SlowPage(gates: gates, keys: ["a"])) }
        } test: { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitFor("waiting for a")
            #expect(client.header("Server-Timing")?.hasPrefix("shell;dur=") == true)
            gates.open("a")
            try await client.waitForEnd()
        }
    }

    @Test func theRenderOptionsReachTheRender() async throws {
        let gates = Gates()
        try await withServer { app in
            // The gate never opens: the deadline ends the page with the fallback in place.
            app.get { _ in
                await StreamedComponent(
                    SlowPage(gates: gates, keys: ["slow"]), options: RenderOptions(deadline: .milliseconds(100)))
            }
        } test: { port in
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
        let log = LogRecorder()
        try await withServer(log: log) { app in
            app.get { _ in await StreamedComponent(FailingShell()) }
        } test: { port in
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

    @Test func anErrorInTheShellGivesTheResponseOfOnShellErrorWithTheRequest() async throws {
        try await withServer { app in
            app.get("products", ":id") { _ in
                await StreamedComponent(FailingShell()) { error, request in
                    let failure = (error as? RenderError)?.underlying is ShellFailure ? "shell failure" : "\(error)"
                    let id = request.parameters.get("id") ?? "?"
                    return Response(status: .serviceUnavailable, body: .init(string: "\(failure) for \(id)"))
                }
            }
        } test: { port in
            let client = try RawHTTPClient(port: port, path: "/products/42")
            try await client.waitForEnd()
            #expect(client.status == 503)
            #expect(client.body == "shell failure for 42")
        }
    }

    @Test func anErrorThrownByOnShellErrorGoesToTheApplicationsMiddleware() async throws {
        struct NotFoundPage: AsyncMiddleware {
            func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
                do {
                    return try await next.respond(to: request)
                } catch let abort as any AbortError {
                    return Response(status: abort.status, body: .init(string: "the application's \(abort.status.code)"))
                }
            }
        }
        try await withServer { app in
            app.middleware.use(NotFoundPage())
            app.get { _ in
                await StreamedComponent(FailingShell()) { _, _ in throw Abort(.notFound) }
            }
        } test: { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitForEnd()
            #expect(client.status == 404)
            #expect(client.body == "the application's 404")
        }
    }

    @Test func anErrorAfterTheShellEndsThePageAndIsLogged() async throws {
        struct LateFailure: Error, CustomStringConvertible {
            var description: String { "the late query failed" }
        }
        let gates = Gates()
        let log = LogRecorder()
        try await withServer(log: log) { app in
            app.get { _ in await StreamedComponent(SlowPage(gates: gates, keys: ["late"])) }
        } test: { port in
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

    @Test func anErrorAfterTheShellGoesToOnLateErrorWithTheRequest() async throws {
        let gates = Gates()
        let reported = Locked<[String]>([])
        try await withServer { app in
            app.get("late", ":name") { _ in
                await StreamedComponent(
                    SlowPage(gates: gates, keys: ["late"]),
                    onLateError: { error, request in
                        reported.withLock { $0.append("\(request.parameters.get("name") ?? "?"): \(error)") }
                    })
            }
        } test: { port in
            let client = try RawHTTPClient(port: port, path: "/late/ann")
            try await client.waitFor("waiting for late")
            gates.open("late", with: .failure(ShellFailure()))
            try await client.waitForEnd()
            #expect(client.chunks.complete)
            #expect(client.body.hasSuffix("</body></html>"))
            #expect(
                reported.withLock { $0 }.contains { $0.hasPrefix("ann: ") && $0.contains("the <database> is down") })
        }
    }

    @Test func aClientThatLeavesCancelsTheRendersQueries() async throws {
        let gates = Gates()
        try await withServer { app in
            app.get { _ in await StreamedComponent(SlowPage(gates: gates, keys: ["first", "never"])) }
        } test: { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitFor("waiting for never")
            client.disconnect()
            try await client.waitForEnd()
            // Vapor signals a closed connection only by failing a write: the next chunk, or at
            // the latest the next probe, finds it.
            gates.open("first")
            try await waitUntil("the query to be cancelled", seconds: 10) { gates.wasCancelled("never") }
            #expect(!gates.hasFinished("never"))
        }
    }

    @Test func aClientThatLeavesWhileNoChunkIsDueIsFoundByTheProbe() async throws {
        let gates = Gates()
        try await withServer { app in
            app.get { _ in await StreamedComponent(SlowPage(gates: gates, keys: ["never"])) }
        } test: { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitFor("waiting for never")
            client.disconnect()
            try await client.waitForEnd()
            // No gate opens: only the empty probe writes can find the closed connection.
            try await waitUntil("the query to be cancelled", seconds: 10) { gates.wasCancelled("never") }
            #expect(!gates.hasFinished("never"))
        }
    }

    @Test func aClientThatLeavesBeforeTheShellCancelsTheRenderOnceTheShellIsReady() async throws {
        let gates = Gates()
        try await withServer { app in
            app.get { _ in await StreamedComponent(GatedShellPage(gates: gates)) }
        } test: { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await waitUntil("the shell's query to start") { gates.isWaiting("shell") }
            client.disconnect()
            try await client.waitForEnd()
            // Vapor tells a handler nothing before its first write: the shell's query runs to its
            // end, and the render stops at the first write that fails after it.
            gates.open("shell")
            try await waitUntil("the query to be cancelled", seconds: 10) { gates.wasCancelled("never") }
            #expect(gates.hasFinished("shell"))
            #expect(!gates.hasFinished("never"))
        }
    }

    @Test func threeRequestsOnOneKeptAliveConnectionGetThreeCompletePages() async throws {
        let gates = Gates()
        gates.open("a")
        try await withServer { app in
            app.get { _ in await StreamedComponent(SlowPage(gates: gates, keys: ["a"])) }
        } test: { port in
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
        try await withServer { app in
            app.get { _ in await StreamedComponent(SlowPage(gates: gates, keys: ["a"])) }
        } test: { port in
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
}
