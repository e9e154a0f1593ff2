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
            try await StreamingChecks.shellBeforeTheSlowQuery(port: port, gates: gates)
        }
    }

    @Test func theTreeDecidesTheStatusHeadersAndRedirects() async throws {
        let gates = Gates()
        let router = Router()
        router.get("/products/:id") { _, context in
            await StreamedComponent(ProductPage(id: context.parameters.get("id") ?? "?", gates: gates))
        }
        try await withServer(router) { port in
            try await StreamingChecks.theTreeDecidesStatusHeadersAndRedirects(port: port, gates: gates)
        }
    }

    @Test func aClientKeepingTheConnectionOpenGetsTheWholePage() async throws {
        let gates = Gates()
        gates.open("slow")
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["slow"])) }
        try await withServer(router) { port in
            try await StreamingChecks.wholePageOnAKeptAliveConnection(port: port)
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
            try await StreamingChecks.statusHeadersAndNonceGiven(port: port, gates: gates)
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
            try await StreamingChecks.theDeadlineEndsThePage(port: port, gates: gates)
        }
    }

    @Test func anErrorInTheShellGivesTheDefaultErrorPageAndIsLogged() async throws {
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(FailingShell()) }
        let log = LogRecorder()
        try await withServer(router, log: log) { port in
            try await StreamingChecks.theDefaultErrorPage(port: port) { log.messages(atLeast: .error) }
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
        let gates = Gates()
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["late"])) }
        let log = LogRecorder()
        try await withServer(router, log: log) { port in
            try await StreamingChecks.aLateErrorEndsThePage(port: port, gates: gates) { log.messages(atLeast: .error) }
        }
    }

    @Test func aClientThatLeavesCancelsTheRendersQueries() async throws {
        let gates = Gates()
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["first", "never"])) }
        try await withServer(router) { port in
            try await StreamingChecks.leavingCancelsTheQueries(port: port, gates: gates)
        }
    }

    @Test func aClientThatLeavesBeforeTheShellCancelsTheRenderOnceTheShellIsReady() async throws {
        let gates = Gates()
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(GatedShellPage(gates: gates)) }
        try await withServer(router) { port in
            // Hummingbird tells a handler nothing before its first write: the shell's query
            // runs to its end, and the render stops at the first write that fails after it.
            try await StreamingChecks.leavingBeforeTheShellCancelsOnceItIsReady(port: port, gates: gates)
        }
    }

    @Test func threeRequestsOnOneKeptAliveConnectionGetThreeCompletePages() async throws {
        let gates = Gates()
        gates.open("a")
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["a"])) }
        try await withServer(router) { port in
            try await StreamingChecks.threeRequestsOnOneConnection(port: port)
        }
    }

    @Test func twoHundredConcurrentRequestsGetTheSamePage() async throws {
        let gates = Gates()
        let router = Router()
        router.get("/") { _, _ in await StreamedComponent(SlowPage(gates: gates, keys: ["a"])) }
        try await withServer(router) { port in
            try await StreamingChecks.twoHundredConcurrentRequests(port: port, gates: gates)
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
