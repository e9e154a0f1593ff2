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
            try await StreamingChecks.shellBeforeTheSlowQuery(port: port, gates: gates)
        }
    }

    @Test func theTreeDecidesTheStatusHeadersAndRedirects() async throws {
        let gates = Gates()
        try await withServer { app in
            app.get("products", ":id") { request in
                await StreamedComponent(ProductPage(id: request.parameters.get("id") ?? "?", gates: gates))
            }
        } test: { port in
            try await StreamingChecks.theTreeDecidesStatusHeadersAndRedirects(port: port, gates: gates)
        }
    }

    @Test func aClientKeepingTheConnectionOpenGetsTheWholePage() async throws {
        let gates = Gates()
        gates.open("slow")
        try await withServer { app in
            app.get { _ in await StreamedComponent(SlowPage(gates: gates, keys: ["slow"])) }
        } test: { port in
            try await StreamingChecks.wholePageOnAKeptAliveConnection(port: port)
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
            try await StreamingChecks.statusHeadersAndNonceGiven(port: port, gates: gates)
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
            app.get { _ in
                await StreamedComponent(
                    SlowPage(gates: gates, keys: ["slow"]), options: RenderOptions(deadline: .milliseconds(100)))
            }
        } test: { port in
            try await StreamingChecks.theDeadlineEndsThePage(port: port, gates: gates)
        }
    }

    @Test func anErrorInTheShellGivesTheDefaultErrorPageAndIsLogged() async throws {
        let log = LogRecorder()
        try await withServer(log: log) { app in
            app.get { _ in await StreamedComponent(FailingShell()) }
        } test: { port in
            try await StreamingChecks.theDefaultErrorPage(port: port) { log.messages(atLeast: .error) }
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
        let gates = Gates()
        let log = LogRecorder()
        try await withServer(log: log) { app in
            app.get { _ in await StreamedComponent(SlowPage(gates: gates, keys: ["late"])) }
        } test: { port in
            try await StreamingChecks.aLateErrorEndsThePage(port: port, gates: gates) { log.messages(atLeast: .error) }
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
            try await StreamingChecks.leavingCancelsTheQueries(port: port, gates: gates)
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
            // Vapor tells a route nothing before its first write: the shell's query runs to its
            // end, and the render stops at the first write that fails after it.
            try await StreamingChecks.leavingBeforeTheShellCancelsOnceItIsReady(port: port, gates: gates)
        }
    }

    @Test func threeRequestsOnOneKeptAliveConnectionGetThreeCompletePages() async throws {
        let gates = Gates()
        gates.open("a")
        try await withServer { app in
            app.get { _ in await StreamedComponent(SlowPage(gates: gates, keys: ["a"])) }
        } test: { port in
            try await StreamingChecks.threeRequestsOnOneConnection(port: port)
        }
    }

    @Test func twoHundredConcurrentRequestsGetTheSamePage() async throws {
        let gates = Gates()
        try await withServer { app in
            app.get { _ in await StreamedComponent(SlowPage(gates: gates, keys: ["a"])) }
        } test: { port in
            try await StreamingChecks.twoHundredConcurrentRequests(port: port, gates: gates)
        }
    }
}
