import SuspenseTesting
import Testing

@testable import SuspenseKit

/// Response declarations in a stream: the shell's decide the head; those revealed later are
/// reported, and a redirect becomes a refresh in the page.
@Suite(.timeLimit(.minutes(3)))
struct ResponseDeclarationStreamTests {
    /// Collects what a stream reports as declared after its shell.
    final class Reports: Sendable {
        private let all = Locked<[ResponseDeclaration]>([])
        func add(_ declaration: ResponseDeclaration) { all.withLock { $0.append(declaration) } }
        var value: [ResponseDeclaration] { all.withLock { $0 } }
    }

    /// A page whose shell declares a status and a header, with a slow part that declares its own
    /// (`late`) once it loads.
    struct Page: Component {
        let gates: Gates
        let late: ResponseDeclaration
        var body: some Component {
            Element("main") {
                Element("h1") { Text("Title") }
                    .httpStatus(.notFound)
                    .responseHeader("Cache-Control", "no-store")
                Suspense {
                    Late(gates: gates, declaration: late)
                } fallback: {
                    Text("loading")
                }
            }
        }
    }

    struct Late: Component {
        let gates: Gates
        let declaration: ResponseDeclaration
        var body: some Component {
            switch declaration {
            case .status(let status): try Gated("a", gates: gates).httpStatus(status)
            case .header(let name, let value): try Gated("a", gates: gates).responseHeader(name, value)
            case .redirect(let location, let status):
                try Gated("a", gates: gates).redirect(to: location, status: status)
            }
        }
    }

    static let refresh =
        #"<meta http-equiv="refresh" content="0;url=/login?next=%2Fa&amp;x=1"><meta name="robots" content="noindex">"#

    @Test func theShellsDeclarationsAreTheHeadAndALaterStatusIsReportedWithoutChangingIt() async throws {
        let gates = Gates()
        let reports = Reports()
        let stream = try await renderStream(
            Page(gates: gates, late: .status(.gone)), stream: StreamOptions(onDeclaredAfterShell: reports.add))
        #expect(stream.responseHead.status == .notFound)
        #expect(stream.responseHead.headers == ["Cache-Control": "no-store"])
        var chunks = ChunkReader(stream)
        #expect(try await chunks.next() == "<main><h1>Title</h1><!--sk:0.1-->loading<!--/sk:0.1--></main>")
        #expect(reports.value.isEmpty)
        gates.open("a")
        #expect(try await chunks.next().hasPrefix("<template><p>a loaded</p></template><script>"))
        #expect(reports.value == [.status(.gone)])
        #expect(stream.responseHead.status == .notFound)
        #expect(try await chunks.next() == streamCleanup)
        try await chunks.end()
    }

    @Test(arguments: [StreamOptions.Order.outOfOrder, .inOrder])
    func aDeclarationBesideContentThatSuspendsIsWithdrawnWithItsSuspenseContent(order: StreamOptions.Order)
        async throws
    {
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Suspense {
                    Text("ready").httpStatus(.gone)
                    try Gated("a", gates: gates)
                } fallback: {
                    Text("loading")
                }
            }
        }
        let gates = Gates()
        let reports = Reports()
        let stream = try await renderStream(
            Page(gates: gates), stream: StreamOptions(order: order, onDeclaredAfterShell: reports.add))
        // Resolved in the first pass, but inside a Suspense that shows its fallback.
        #expect(stream.responseHead == ResponseHead())
        gates.open("a")
        #expect(try await stream.collect().contains("ready"))
        #expect(reports.value == [.status(.gone)])
    }

    @Test func aRedirectBeforeTheShellIsTheHeadAndLeavesNoMarkup() async throws {
        struct Login: Component {
            let gates: Gates
            var body: some Component {
                Element("p") { Text("Signing in") }.redirect(to: "/login", status: .temporaryRedirect)
                Suspense {
                    try Gated("a", gates: gates)
                } fallback: {
                    Text("loading")
                }
            }
        }
        let gates = Gates()
        let stream = try await renderStream(Login(gates: gates))
        #expect(stream.responseHead.status == .temporaryRedirect)
        #expect(stream.responseHead.location == "/login")
        #expect(stream.responseHead.headers == ["Location": "/login"])
        gates.open("a")
        let page = try await stream.collect()
        #expect(!page.contains("meta"))
    }

    @Test(arguments: [StreamOptions.Swap.script, .declarative, .declarativeWithScript])
    func aRedirectRevealedAfterTheShellBecomesARefreshInItsChunk(swap: StreamOptions.Swap) async throws {
        let gates = Gates()
        let reports = Reports()
        let redirect = ResponseDeclaration.redirect(location: "/login?next=%2Fa&x=1", status: .seeOther)
        var chunks = ChunkReader(
            try await renderStream(
                Page(gates: gates, late: redirect), stream: StreamOptions(swap: swap, onDeclaredAfterShell: reports.add)
            ))
        let shell = try await chunks.next()
        #expect(!shell.contains("meta"))
        gates.open("a")
        let chunk = try await chunks.next()
        // First in the chunk, in the page itself: it works whether or not the region is swapped.
        #expect(chunk.hasPrefix(Self.refresh + "<template"))
        #expect(chunk.components(separatedBy: "http-equiv").count == 2)
        #expect(reports.value == [redirect])
    }

    @Test func inOrderTheHeadCountsWhatWasDeclaredBeforeTheShellEvenBelowAPendingSuspense() async throws {
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("main") {
                    Suspense {
                        try Gated("a", gates: gates).redirect(to: "/login?next=%2Fa&x=1")
                    } fallback: {
                        Text("loading")
                    }
                    Element("footer") { Text("end") }.responseHeader("Vary", "Cookie")
                }
            }
        }
        let gates = Gates()
        let reports = Reports()
        let stream = try await renderStream(
            Page(gates: gates), stream: StreamOptions(order: .inOrder, onDeclaredAfterShell: reports.add))
        #expect(stream.responseHead.headers == ["Vary": "Cookie"])
        var chunks = ChunkReader(stream)
        #expect(try await chunks.next() == "<main>")
        gates.open("a")
        // The footer was counted in the head: written now, it is not reported; the redirect is.
        #expect(try await chunks.next() == "<p>a loaded</p><footer>end</footer></main>" + Self.refresh)
        try await chunks.end()
        #expect(reports.value == [.redirect(location: "/login?next=%2Fa&x=1", status: .seeOther)])
    }

    @Test func inOrderARefreshWaitsUntilTheDocumentIsOutOfATitle() async throws {
        struct Page: Component {
            let gates: Gates
            var body: some Component {
                Element("title") {
                    Suspense {
                        try Gated("a", gates: gates).redirect(to: "/login?next=%2Fa&x=1")
                    } fallback: {
                        Text("loading")
                    }
                    Suspense {
                        try Gated("b", gates: gates)
                    } fallback: {
                        Text("loading")
                    }
                }
                Element("p") { Text("body") }
            }
        }
        let gates = Gates()
        var chunks = ChunkReader(try await renderStream(Page(gates: gates), stream: StreamOptions(order: .inOrder)))
        #expect(try await chunks.next() == "<title>")
        gates.open("a")
        // Inside the title a `<meta>` would be text: the refresh waits.
        let first = try await chunks.next()
        #expect(!first.contains("meta"))
        gates.open("b")
        #expect(try await chunks.next().hasSuffix("</title><p>body</p>" + Self.refresh))
        try await chunks.end()
    }

    @Test func aRetriedBoundaryCountsOnlyTheAttemptThatShows() async throws {
        struct Card: Component {
            let value: String
            init(flaky: Flaky) throws {
                value = try resolveValue(key: "card") { try flaky.value() }
            }
            var body: some Component { Text(value) }
        }
        struct Page: Component {
            let flaky: Flaky
            var body: some Component {
                ErrorBoundary(retry: RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1))) {
                    EmptyComponent().responseHeader("Set-Cookie", "tried=1")
                    try Card(flaky: flaky)
                } fallback: { _ in
                    Text("failed").httpStatus(.serviceUnavailable)
                }
            }
        }
        for (failures, expected) in [
            (1, ResponseHead(declarations: [.header(name: "Set-Cookie", value: "tried=1")])),
            (5, ResponseHead(declarations: [.status(.serviceUnavailable)])),
        ] {
            let clock = TestClock()
            let flaky = Flaky(failures: failures)
            async let page = renderResponse(Page(flaky: flaky), as: .tree, options: options(clock))
            for attempt in 1..<min(failures + 1, 3) {
                await clock.waitForSleepers(1)
                clock.advance(by: .seconds(1 << (attempt - 1)))
            }
            let head = try await page.head
            // A repeatable header shows each declaration kept: the failed attempts' are gone.
            #expect(head == expected)
        }
    }

    @Test(arguments: [
        ResponseDeclaration.header(name: "X-Note", value: "a\r\nSet-Cookie: admin=1"),
        .header(name: "X-Note", value: "a\nb"),
        .header(name: "X-Note", value: "a\u{0}b"),
        .header(name: "X Note", value: "a"),
        .header(name: "X-Note:", value: "a"),
        .header(name: "", value: "a"),
        .header(name: "Content-Length", value: "0"),
        .header(name: "Location", value: "/x"),
        .redirect(location: "javascript:alert(1)", status: .seeOther),
        .redirect(location: "/a\"><script>alert(1)</script>", status: .seeOther),
        .redirect(location: "/a\r\nSet-Cookie: admin=1", status: .seeOther),
        .redirect(location: "/a b", status: .seeOther),
        .redirect(location: "'/a", status: .seeOther),
        .redirect(location: "", status: .seeOther),
        .redirect(location: "/a", status: .ok),
        .status(HTTPStatus(99)),
        .status(HTTPStatus(700)),
    ])
    func anInvalidDeclarationFailsAtItsComponentAndNeverReachesTheResponse(declaration: ResponseDeclaration)
        async throws
    {
        struct Declaring: Component {
            let declaration: ResponseDeclaration
            var body: some Component {
                switch declaration {
                case .status(let status): Text("x").httpStatus(status)
                case .header(let name, let value): Text("x").responseHeader(name, value)
                case .redirect(let location, let status): Text("x").redirect(to: location, status: status)
                }
            }
        }
        struct Page: Component {
            let declaration: ResponseDeclaration
            var body: some Component {
                ErrorBoundary {
                    Declaring(declaration: declaration)
                } fallback: { error in
                    Text("rejected: \(error)")
                }
            }
        }
        let error = await #expect(throws: RenderError.self) {
            _ = try await renderResponse(Declaring(declaration: declaration))
        }
        #expect(error?.underlying is InvalidResponseDeclarationError)
        #expect(error?.path == ["Declaring"])
        let caught = try await renderResponse(Page(declaration: declaration), as: .plain)
        #expect(caught.head == ResponseHead())
        #expect(caught.body.hasPrefix("rejected: "))
        let stream = try await renderStream(Page(declaration: declaration))
        #expect(stream.responseHead == ResponseHead())
        #expect(!(try await stream.collect()).contains("<script>alert"))
    }

    @Test func theErrorSaysWhatIsWrong() async throws {
        let error = await #expect(throws: RenderError.self) {
            _ = try await renderResponse(Text("x").responseHeader("X-Note", "a\r\nSet-Cookie: admin=1"))
        }
        #expect(
            error?.description
                == "uncaught error: the value of the header X-Note holds a line break or another control "
                + #"character: "a\r\nSet-Cookie: admin=1""#)
        let location = await #expect(throws: RenderError.self) {
            _ = try await renderResponse(Text("x").redirect(to: "javascript:alert(1)"))
        }
        #expect(
            location?.description
                == #"uncaught error: a redirect goes to a relative URL or an http or https one, not "javascript:alert(1)""#
        )
    }

    @Test func validLocationsAreAccepted() async throws {
        for location in [
            "/", "/a/b?c=d&e=%20#f", "https://example.com/x", "HTTP://example.com", "//cdn.example/a", "a/b",
        ] {
            let page = try await renderResponse(Text("x").redirect(to: location))
            #expect(page.head.location == location)
        }
    }

    @Test func aTreeBuiltByHandShowsItsDeclarationsOnlyInTheTreeFormat() throws {
        let node = Node(
            .fragment,
            children: [
                Node(.responseDeclaration(.status(.notFound))),
                Node(.element(tag: "p", attributes: []), children: [Node(.text("gone"))]),
                Node(.responseDeclaration(.header(name: "Vary", value: "A"))),
                Node(.responseDeclaration(.header(name: "vary", value: "B"))),
                Node(.responseDeclaration(.header(name: "X-A", value: "1"))),
                Node(.responseDeclaration(.header(name: "x-a", value: "2"))),
                Node(.responseDeclaration(.status(.gone))),
            ])
        #expect(try node.rendered(as: .html) == "<p>gone</p>")
        #expect(try node.rendered(as: .plain) == "gone")
        #expect(
            try node.rendered(as: .tree)
                == """
                [http status 404]
                <p>
                └─ "gone"
                [http header Vary: A]
                [http header vary: B]
                [http header X-A: 1]
                [http header x-a: 2]
                [http status 410]
                """)
        #expect(node.responseHead.status == .gone)
        #expect(
            node.responseHead.headers == ["Vary": "A", "vary": "B", "X-A": "2"])
    }
}
