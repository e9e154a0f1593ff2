import Testing

@testable import SuspenseKit

/// Pins the exact output of every format for a tree that holds every kind of node and boundary
/// state, so that work on the resolver and the renderers (performance work among it) keeps it.
struct RenderOutputTests {
    func page() async throws -> (node: Node, executions: Fixtures.Executions) {
        let executions = Fixtures.Executions()
        let node = try await resolve(Fixtures.Page(executions: executions), cache: cacheWithForever())
        return (node, executions)
    }

    func cacheWithForever() -> QueryCache {
        let cache = QueryCache()
        cache.stub(.pending, for: "forever")
        return cache
    }

    @Test func treeFormat() async throws {
        let (node, executions) = try await page()
        #expect(executions.value == 3)
        #expect(try node.rendered(as: .tree) == treeOutput)
    }

    @Test func plainFormat() async throws {
        #expect(try await page().node.rendered(as: .plain) == plainOutput)
    }

    @Test func htmlFormat() async throws {
        #expect(try await page().node.rendered(as: .html) == htmlOutput)
    }

    @Test func prettyHTMLFormat() async throws {
        #expect(try await page().node.rendered(as: .html(pretty: true)) == prettyOutput)
    }

    @Test func renderMatchesResolveThenRendered() async throws {
        let node = try await page().node
        for format in [RenderFormat.tree, .plain, .html, .html(pretty: true)] {
            let rendered = try await render(
                Fixtures.Page(executions: Fixtures.Executions()), as: format, cache: cacheWithForever())
            #expect(rendered == (try node.rendered(as: format)))
        }
    }

    @Test func framesInDiscoveryOrder() async throws {
        let frames = try await resolveFrames(
            Fixtures.Page(executions: Fixtures.Executions()), cache: cacheWithForever())
        var summary: [String] = []
        for frame in frames {
            summary.append("== \(frame.cause)")
            for line in try frame.node.rendered(as: .tree).split(separator: "\n")
            where line.contains("Suspense") || line.contains("ErrorBoundary") {
                summary.append(String(line.drop(while: { "│├└─ ".contains($0) })))
            }
        }
        #expect(summary.joined(separator: "\n") == framesSummary)
    }

    @Test func resolvedNodeStructure() async throws {
        struct Small: Component {
            var body: some Component {
                Element("ul", attributes: ["id": "x"]) {
                    ForEach(0..<2) { index in Element("li") { Text("\(index)") } }
                }
                Suspense {
                    RawHTML("<b>")
                } fallback: {
                    Text("…")
                }
            }
        }
        let node = try await resolve(Small())
        let expected = Node(
            .fragment,
            children: [
                Node(
                    .component(name: "Small"),
                    children: [
                        Node(
                            .element(tag: "ul", attributes: [Attribute("id", "x")]),
                            children: [
                                Node(.element(tag: "li", attributes: []), children: [Node(.text("0"))]),
                                Node(.element(tag: "li", attributes: []), children: [Node(.text("1"))]),
                            ]),
                        Node(.suspense(.resolved), children: [Node(.rawHTML("<b>"))]),
                    ])
            ])
        #expect(node == expected)
    }

    @Test func uncaughtErrorNamesThePath() async throws {
        await #expect {
            _ = try await render(Group { try Fixtures.Failing() })
        } throws: { error in
            "\(error)" == "uncaught error in Failing: boom <&>"
        }
    }

    @Test func errorPathsOfSuspendedComponents() async throws {
        struct BodySuspends: Component {
            var body: some Component {
                get throws {
                    let _: Int = try resolveValue(key: "body") { throw Fixtures.Boom() }
                    return Text("never")
                }
            }
        }
        struct Outer: Component {
            var body: some Component {
                Suspense {
                    Element("div") { BodySuspends() }
                    try Fixtures.Failing()
                }
            }
        }
        await #expect {
            _ = try await render(Outer())
        } throws: { error in
            "\(error)" == "uncaught error in Outer > Suspense > BodySuspends: boom <&>"
                || "\(error)" == "uncaught error in Outer > Suspense > Failing: boom <&>"
        }
        await #expect {
            _ = try await render(Group { Element("p") { BodySuspends() } })
        } throws: { error in
            "\(error)" == "uncaught error in BodySuspends: boom <&>"
        }
    }

    @Test func longEscapedListMatchesAHandWrittenLoop() async throws {
        struct List: Component {
            var body: some Component {
                Element("ul") {
                    ForEach(0..<2_000) { index in Element("li") { Text("item \(index): <b>&\"q\"</b>\u{0}é") } }
                }
            }
        }
        var expected = "<ul>"
        for index in 0..<2_000 { expected += "<li>item \(index): &lt;b&gt;&amp;\"q\"&lt;/b&gt;\u{FFFD}é</li>" }
        expected += "</ul>"
        #expect(try await render(List(), as: .html) == expected)
    }
}

private let treeOutput = """
    Page
    └─ <main>
       ├─ <h1>
       │  └─ "Title & <more>"
       ├─ <img src="/a.png" alt="A \\"B\\"">
       ├─ <br>
       ├─ raw "<hr/><b>raw</b>"
       ├─ ErrorBoundary #0.4
       │  └─ Suspense #0.4.0 [resolved]
       │     ├─ Card
       │     │  └─ <p class="card \\"x\\" & 'y'" data-id="1">
       │     │     └─ "Hi, User 1 <\\"&'>."
       │     ├─ Card
       │     │  └─ <p class="card \\"x\\" & 'y'" data-id="1">
       │     │     └─ "Hi, User 2 <\\"&'>."
       │     ├─ Card
       │     │  └─ <p class="card \\"x\\" & 'y'" data-id="1">
       │     │     └─ "Hi, User 1 <\\"&'>."
       │     └─ Suspense #0.4.0.3 [resolved]
       │        └─ Card
       │           └─ <p class="card \\"x\\" & 'y'" data-id="1">
       │              └─ "Hi, User 3 <\\"&'>."
       ├─ ErrorBoundary #0.5 [caught: boom <&>]
       │  └─ <p>
       │     └─ "caught: boom <&>"
       ├─ Suspense #0.6 [pending: forever]
       │  └─ <div>
       │     └─ "still loading"
       ├─ Suspense #0.7 [resolved]
       │  └─ Typed
       │     └─ <em>
       │        └─ "typed"
       ├─ "empty list"
       ├─ <span>
       │  └─ "even 0"
       ├─ "odd 1"
       ├─ <span>
       │  └─ "even 2"
       ├─ Wrapper
       │  └─ <section>
       │     └─ "wrapped\\nline\\t\\u{1}"
       └─ <ul>
          ├─ <li>
          │  └─ "item 0"
          ├─ <li>
          │  └─ "item 1"
          └─ <li>
             └─ "item 2"
    """

private let plainOutput = """
    Title & <more>
    raw
    Hi, User 1 <"&'>.
    Hi, User 2 <"&'>.
    Hi, User 1 <"&'>.
    Hi, User 3 <"&'>.
    caught: boom <&>
    still loading
    typedempty listeven 0odd 1even 2
    wrapped
    line\t\\u{1}

    - item 0
    - item 1
    - item 2
    """

private let htmlOutput = """
    <main><h1>Title &amp; &lt;more&gt;</h1><img src="/a.png" alt="A &quot;B&quot;"><br><hr/><b>raw</b><p class="card &quot;x&quot; &amp; &#39;y&#39;" data-id="1">Hi, User 1 &lt;"&amp;'&gt;.</p><p class="card &quot;x&quot; &amp; &#39;y&#39;" data-id="1">Hi, User 2 &lt;"&amp;'&gt;.</p><p class="card &quot;x&quot; &amp; &#39;y&#39;" data-id="1">Hi, User 1 &lt;"&amp;'&gt;.</p><p class="card &quot;x&quot; &amp; &#39;y&#39;" data-id="1">Hi, User 3 &lt;"&amp;'&gt;.</p><p>caught: boom &lt;&amp;&gt;</p><div>still loading</div><em>typed</em>empty list<span>even 0</span>odd 1<span>even 2</span><section>wrapped
    line\t\u{1}</section><ul><li>item 0</li><li>item 1</li><li>item 2</li></ul></main>
    """

private let prettyOutput = """
    <main>
      <h1>Title &amp; &lt;more&gt;</h1><img src="/a.png" alt="A &quot;B&quot;"><br><hr/><b>raw</b>
      <p class="card &quot;x&quot; &amp; &#39;y&#39;" data-id="1">Hi, User 1 &lt;"&amp;'&gt;.</p>
      <p class="card &quot;x&quot; &amp; &#39;y&#39;" data-id="1">Hi, User 2 &lt;"&amp;'&gt;.</p>
      <p class="card &quot;x&quot; &amp; &#39;y&#39;" data-id="1">Hi, User 1 &lt;"&amp;'&gt;.</p>
      <p class="card &quot;x&quot; &amp; &#39;y&#39;" data-id="1">Hi, User 3 &lt;"&amp;'&gt;.</p>
      <p>caught: boom &lt;&amp;&gt;</p>
      <div>still loading</div><em>typed</em>empty list<span>even 0</span>odd 1<span>even 2</span>
      <section>wrapped
    line\t\u{1}</section>
      <ul>
        <li>item 0</li>
        <li>item 1</li>
        <li>item 2</li>
      </ul>
    </main>
    """

private let framesSummary = """
    == initial
    ErrorBoundary #0.4
    Suspense #0.4.0 [pending: user/1, user/2]
    ErrorBoundary #0.5
    Suspense #0.5.0 [pending: fails]
    Suspense #0.6 [pending: forever]
    Suspense #0.7 [pending: Promise<Loaded>]
    == user/1
    ErrorBoundary #0.4
    Suspense #0.4.0 [pending: user/2]
    ErrorBoundary #0.5
    Suspense #0.5.0 [pending: fails]
    Suspense #0.6 [pending: forever]
    Suspense #0.7 [pending: Promise<Loaded>]
    == user/2
    ErrorBoundary #0.4
    Suspense #0.4.0 [resolved]
    Suspense #0.4.0.3 [pending: user/3]
    ErrorBoundary #0.5
    Suspense #0.5.0 [pending: fails]
    Suspense #0.6 [pending: forever]
    Suspense #0.7 [pending: Promise<Loaded>]
    == user/3
    ErrorBoundary #0.4
    Suspense #0.4.0 [resolved]
    Suspense #0.4.0.3 [resolved]
    ErrorBoundary #0.5
    Suspense #0.5.0 [pending: fails]
    Suspense #0.6 [pending: forever]
    Suspense #0.7 [pending: Promise<Loaded>]
    == fails
    ErrorBoundary #0.4
    Suspense #0.4.0 [resolved]
    Suspense #0.4.0.3 [resolved]
    ErrorBoundary #0.5 [caught: boom <&>]
    Suspense #0.6 [pending: forever]
    Suspense #0.7 [pending: Promise<Loaded>]
    == Promise<Loaded>
    ErrorBoundary #0.4
    Suspense #0.4.0 [resolved]
    Suspense #0.4.0.3 [resolved]
    ErrorBoundary #0.5 [caught: boom <&>]
    Suspense #0.6 [pending: forever]
    Suspense #0.7 [resolved]
    """
