import Testing

@testable import SuspenseKit

@Suite struct ContentSecurityPolicyTests {
    func streamed(
        serving: ServingOptions,
        stream: StreamOptions = StreamOptions()
    ) async throws -> (page: StreamedPage, head: PageHead, body: String, log: [String]) {
        let gates = Gates()
        let page = await StreamedPage(HTMLStreamTests.TwoCards(gates: gates), stream: stream, serving: serving)
        // After the shell, so that both boundaries stream in.
        gates.open("a")
        gates.open("b")
        let recording = RecordingHooks()
        guard case .stream(let head) = page.response(context: "GET /", hooks: recording.hooks()) else {
            throw TestFailure("no stream")
        }
        let writer = FakeBodyWriter()
        try await page.writeBody(context: "GET /", hooks: recording.hooks(), to: writer.write)
        return (page, head, writer.chunks.joined(), recording.log.all)
    }

    func occurrences(of needle: String, in text: String) -> Int {
        text.split(separator: needle, omittingEmptySubsequences: false).count - 1
    }

    @Test func eachResponseGetsAFreshNonceOnEveryScriptAndInTheHeader() async throws {
        let (first, firstHead, firstBody, log) = try await streamed(
            serving: ServingOptions(contentSecurityPolicy: .nonce))
        let (second, _, _, _) = try await streamed(serving: ServingOptions(contentSecurityPolicy: .nonce))
        let nonce = try #require(first.nonce)
        #expect(nonce != second.nonce)
        // 18 random bytes: 144 bits, 24 base64 characters.
        #expect(nonce.utf8.count == 24)
        #expect(nonce.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" })
        #expect(
            firstHead.headers["Content-Security-Policy"]
                == "script-src 'nonce-\(nonce)'; object-src 'none'; base-uri 'none'")
        let scripts = occurrences(of: "<script", in: firstBody)
        #expect(scripts >= 3)
        #expect(occurrences(of: "<script nonce=\"\(nonce)\">", in: firstBody) == scripts)
        #expect(log.isEmpty)
    }

    @Test func theNonceJoinsTheApplicationsOwnDirectives() async throws {
        let (page, head, _, _) = try await streamed(
            serving: ServingOptions(contentSecurityPolicy: .nonce(directives: "default-src 'self'; img-src https:")))
        let nonce = try #require(page.nonce)
        #expect(
            head.headers["Content-Security-Policy"]
                == "script-src 'self' 'nonce-\(nonce)'; default-src 'self'; img-src https:")
        #expect(
            CSPDirectives("Script-Src 'none'; style-src 'self'").addingNonce("N")
                == "script-src 'nonce-N'; style-src 'self'")
    }

    @Test func aPolicyHeaderThatBlocksTheStreamsScriptsIsReportedWithTheFix() async throws {
        let blocking: PageHeaders = ["Content-Security-Policy": "default-src 'self'"]
        let (_, _, _, log) = try await streamed(serving: ServingOptions(headers: blocking))
        #expect(log.count == 1)
        #expect(
            log.first?.hasPrefix("warning [GET /] the Content-Security-Policy header \"default-src 'self'\" blocks")
                == true)
        #expect(log.first?.contains("ServingOptions(contentSecurityPolicy: .nonce)") == true)

        // A nonce in StreamOptions that the header does not list.
        let (_, _, _, mismatched) = try await streamed(
            serving: ServingOptions(headers: ["content-security-policy": "script-src 'nonce-other'"]),
            stream: StreamOptions(nonce: "mine"))
        #expect(mismatched.count == 1 && mismatched[0].contains("add 'nonce-mine'"))

        // Beside the policy the core makes, a header of the application's own cannot know the nonce.
        let (_, head, _, both) = try await streamed(
            serving: ServingOptions(headers: blocking, contentSecurityPolicy: .nonce))
        #expect(head.headers.values(for: "Content-Security-Policy").count == 2)
        #expect(both.count == 1 && both[0].contains(".nonce(directives:)"))
    }

    @Test func aPolicyThatLetsTheScriptsRunOrAStreamWithoutScriptsIsNotReported() async throws {
        let allowed: [(PageHeaders, StreamOptions)] = [
            (["Content-Security-Policy": "script-src 'nonce-mine'"], StreamOptions(nonce: "mine")),
            (["Content-Security-Policy": "script-src 'self' 'unsafe-inline'"], StreamOptions()),
            (["Content-Security-Policy": "img-src 'self'"], StreamOptions()),
            (["Content-Security-Policy": "default-src 'self'"], StreamOptions(swap: .declarative)),
            (["Content-Security-Policy": "default-src 'self'"], StreamOptions(order: .inOrder)),
        ]
        for (headers, stream) in allowed {
            let (_, _, _, log) = try await streamed(serving: ServingOptions(headers: headers), stream: stream)
            #expect(log.isEmpty, "\(headers) \(stream.swap) \(stream.order)")
        }
        // 'unsafe-inline' is ignored beside a nonce the scripts do not carry.
        #expect(!CSPDirectives("script-src 'unsafe-inline' 'nonce-x'").allowsInlineScripts(nonce: nil))
        #expect(CSPDirectives("script-src 'none'; script-src-elem 'unsafe-inline'").allowsInlineScripts(nonce: nil))
    }

    @Test func base64AndServerTimingAreWrittenByHand() {
        #expect(ResponseNonce.base64(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(ResponseNonce.base64(Array("fooba".utf8)) == "Zm9vYmE=")
        #expect(ResponseNonce.base64(Array("foob".utf8)) == "Zm9vYg==")
        #expect(ResponseNonce.base64([0xFB, 0xFF]) == "+/8=")
        #expect(ServerTiming.metric("shell", .milliseconds(250)) == "shell;dur=250")
        #expect(ServerTiming.metric("shell", .microseconds(12_345)) == "shell;dur=12.3")
        #expect(ServerTiming.metric("shell", .microseconds(99_960)) == "shell;dur=100")
        #expect(ServerTiming.metric("shell", .zero) == "shell;dur=0")
    }
}
