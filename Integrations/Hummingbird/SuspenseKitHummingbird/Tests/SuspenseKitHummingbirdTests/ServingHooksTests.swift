import Hummingbird
import ServerTestLogging
import ServerTestSupport
import SuspenseKit
import SuspenseTesting
import Testing

@testable import SuspenseKitHummingbird

/// What the framework-neutral core brings to `StreamedComponent`: hooks that get the request, a
/// Content Security Policy with a nonce per response, `Server-Timing`.
@Suite(.timeLimit(.minutes(2)))
struct ServingHooksTests {
    @Test func onShellErrorCanReadTheRequestAndItsContext() async throws {
        let router = Router()
        router.get("/products/:id") { _, _ in
            await StreamedComponent(FailingShell()) { error, request, context in
                context.logger.error("shell failed for \(request.uri.path)")
                let id = context.parameters.get("id") ?? "?"
                return Response(
                    status: .notFound, body: ResponseBody(byteBuffer: ByteBuffer(string: "no product \(id)")))
            }
        }
        let log = LogRecorder()
        try await withServer(router, log: log) { port in
            let client = try RawHTTPClient(port: port, path: "/products/7")
            try await client.waitForEnd()
            #expect(client.status == 404)
            #expect(client.body == "no product 7")
            #expect(log.messages(atLeast: .error).contains("shell failed for /products/7"))
        }
    }

    @Test func onLateErrorGetsTheRequestOnceThePageIsClosed() async throws {
        struct LateFailure: Error {}
        let gates = Gates()
        let seen = LogRecorder()
        let router = Router()
        router.get("/late") { _, _ in
            await StreamedComponent(
                SlowPage(gates: gates, keys: ["late"]),
                onLateError: { error, request, _ in seen.record(.error, "late error on \(request.uri.path)") })
        }
        let log = LogRecorder()
        try await withServer(router, log: log) { port in
            let client = try RawHTTPClient(port: port, path: "/late")
            try await client.waitFor("waiting for late")
            gates.open("late", with: .failure(LateFailure()))
            try await client.waitForEnd()
            #expect(client.chunks.complete)
            #expect(client.body.hasSuffix("</body></html>"))
            #expect(seen.messages(atLeast: .error) == ["late error on /late"])
            // Given to the hook, not logged as well.
            #expect(log.messages(atLeast: .error).isEmpty)
        }
    }

    @Test func aPolicyWithAFreshNonceReachesTheHeaderAndEveryScript() async throws {
        let gates = Gates()
        let router = Router()
        router.get("/:round") { _, context in
            let round = context.parameters.get("round") ?? ""
            return await StreamedComponent(
                SlowPage(gates: gates, keys: ["a\(round)", "b\(round)"]), contentSecurityPolicy: .nonce)
        }
        try await withServer(router) { port in
            var nonces: [String] = []
            for round in 0..<2 {
                let client = try RawHTTPClient(port: port, path: "/\(round)")
                try await client.waitFor("waiting for b\(round)")
                gates.open("a\(round)")
                gates.open("b\(round)")
                try await client.waitForEnd()
                let policy = try #require(client.header("Content-Security-Policy"))
                let nonce = try #require(policy.split(separator: "'nonce-").last?.split(separator: "'").first)
                nonces.append(String(nonce))
                #expect(policy == "script-src 'nonce-\(nonce)'; object-src 'none'; base-uri 'none'")
                let scripts = client.body.split(separator: "<script").count - 1
                #expect(scripts >= 2)
                #expect(client.body.split(separator: "<script nonce=\"\(nonce)\">").count - 1 == scripts)
                #expect(client.header("Server-Timing")?.hasPrefix("shell;dur=") == true)
            }
            #expect(nonces[0] != nonces[1])
        }
    }

    @Test func aPolicyHeaderThatBlocksTheScriptsIsLogged() async throws {
        let router = Router()
        router.get("/") { _, _ in
            await StreamedComponent(
                SlowPage(gates: Gates(), keys: []), headers: [.contentSecurityPolicy: "script-src 'self'"])
        }
        let log = LogRecorder()
        try await withServer(router, log: log) { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await client.waitForEnd()
            #expect(client.status == 200)
            let warnings = log.messages(atLeast: .warning)
            #expect(
                warnings.contains { $0.contains("blocks the stream's inline scripts") && $0.contains(".nonce") },
                "\(warnings)")
        }
    }
}

/// `Server-Timing` from the render's report, on a real server: the head's for the shell, the
/// trailer's for the whole stream, exact on the render's test clock.
@Suite(.timeLimit(.minutes(2)))
struct ServerTimingTests {
    @Test func theHeadTimesTheShellAndWhatItWaitedOnAndTheTrailerTheWholeStream() async throws {
        let gates = Gates()
        let clock = TestClock()
        let router = Router()
        router.get("/") { _, _ in
            await StreamedComponent(GatedShellPage(gates: gates), options: RenderOptions(clock: clock))
        }
        try await withServer(router) { port in
            let client = try RawHTTPClient(port: port, path: "/")
            try await waitUntil("the shell's query to run") { gates.isWaiting("shell") }
            clock.advance(by: .milliseconds(20))
            gates.open("shell")
            try await client.waitFor("waiting for never")
            #expect(client.header("Server-Timing") == "shell;dur=20, q-shell;dur=20")
            #expect(client.header("Trailer") == "Server-Timing")
            clock.advance(by: .milliseconds(30.5))
            gates.open("never")
            try await client.waitForEnd()
            #expect(client.chunks.complete)
            #expect(client.body.hasSuffix("</body></html>"))
            #expect(client.trailer("Server-Timing") == "total;dur=50.5, reveal-0.0.1;dur=50.5")
        }
    }
}
