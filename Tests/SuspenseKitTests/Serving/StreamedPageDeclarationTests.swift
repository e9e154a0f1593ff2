import SuspenseTesting
import Testing

@testable import SuspenseKit

/// The server core honours what the shell's tree declared: status, headers and a redirect decide
/// the head; what the tree declares later is logged.
@Suite(.timeLimit(.minutes(3)))
struct StreamedPageDeclarationTests {
    struct Page: Component {
        let gates: Gates
        var body: some Component {
            Element("main") {
                Element("h1") { Text("Not found") }
                    .httpStatus(.notFound)
                    .responseHeader("Cache-Control", "no-store")
                    .responseHeader("Vary", "Cookie")
                Suspense {
                    try Gated("a", gates: gates).httpStatus(.gone).redirect(to: "/elsewhere")
                } fallback: {
                    Text("loading")
                }
            }
        }
    }

    struct Login: Component {
        let gates: Gates
        var body: some Component {
            Element("p") { Text("Please sign in") }.redirect(to: "/login?next=%2Fa&x=1")
            Suspense {
                try Gated("a", gates: gates)
            } fallback: {
                Text("loading")
            }
        }
    }

    func head(_ response: PageResponse) throws -> PageHead {
        guard case .stream(let head) = response else { throw TestFailure("expected a stream, got \(response)") }
        return head
    }

    @Test func theShellsStatusAndHeadersGoOverTheOptionsAndLaterOnesAreLogged() async throws {
        let gates = Gates()
        let page = await StreamedPage(
            Page(gates: gates),
            serving: ServingOptions(status: 200, headers: ["Cache-Control": "max-age=60", "Vary": "Accept"]))
        let recording = RecordingHooks()
        let head = try head(page.response(context: "GET /p/7", hooks: recording.hooks()))
        #expect(head.status == 404)
        #expect(head.headers.values(for: "Cache-Control") == ["no-store"])
        #expect(head.headers.values(for: "Vary") == ["Accept", "Cookie"])
        #expect(head.headers["Location"] == nil)
        #expect(head.headers["Content-Type"] == "text/html; charset=utf-8")

        let writer = FakeBodyWriter()
        async let written: Void = page.writeBody(context: "GET /p/7", hooks: recording.hooks(), to: writer.write)
        try await waitUntil("the shell to be written") { !writer.chunks.isEmpty }
        gates.open("a")
        try await written
        let late = writer.chunks.dropFirst().joined()
        #expect(late.hasPrefix(#"<meta http-equiv="refresh" content="0;url=/elsewhere">"#))
        let log = recording.log.all
        #expect(log.count == 2)
        #expect(log.allSatisfy { $0.hasPrefix("warning [GET /p/7] declaredAfterShell: ") })
        #expect(log.contains { $0.contains("a redirect (303) to /elsewhere") })
        #expect(log.contains { $0.contains("the status 410") })
    }

    @Test func aRedirectInTheShellIsThe3xxHeadAndAShortBodyAndStopsTheRender() async throws {
        let gates = Gates()
        let page = await StreamedPage(Login(gates: gates))
        let recording = RecordingHooks()
        let head = try head(page.response(context: "", hooks: recording.hooks()))
        #expect(head.status == 303)
        #expect(head.headers["Location"] == "/login?next=%2Fa&x=1")
        // The page is not rendered further: its query is cancelled without its gate opening.
        try await waitUntil("the query to be cancelled") { gates.cancellations.value == 1 }
        let writer = FakeBodyWriter()
        try await page.writeBody(context: "", hooks: recording.hooks(), to: writer.write)
        #expect(
            writer.chunks == [
                #"<!DOCTYPE html><html><body><p>Redirecting to <a href="/login?next=%2Fa&amp;x=1">"#
                    + "/login?next=%2Fa&amp;x=1</a>.</p></body></html>"
            ])
        #expect(recording.log.all.isEmpty)
    }
}
