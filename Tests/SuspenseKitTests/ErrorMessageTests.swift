import Testing

@testable import SuspenseKit

/// An error whose description holds what a visitor must never see.
private struct DatabaseDown: Error, CustomStringConvertible {
    var description: String { "connection to postgres://app:s3cret@10.0.3.7:5432/shop refused" }
}

private let secret = "s3cret"

/// Fails at once, in the shell.
private struct Broken: Component {
    init() throws { throw DatabaseDown() }
    var body: some Component { Text("never") }
}

/// Fails once its query has run: after the shell, in a stream.
private struct BrokenLater: Component {
    init() throws {
        let _: String = try resolveValue(key: "orders") {
            await Task.yield()
            throw DatabaseDown()
        }
    }
    var body: some Component { Text("never") }
}

private struct Offline: PresentableError {
    var title: String { "Offline" }
    var message: String { "The <feed> cannot be reached." }
}

private struct Page: Component {
    var body: some Component {
        Element("main") {
            Element("h1") { Text("Orders") }
            ErrorBoundary { try Broken() }
            ErrorBoundary {
                Suspense {
                    try BrokenLater()
                } fallback: {
                    Text("Loading…")
                }
            }
        }
    }
}

@Suite struct ErrorMessageTests {
    @Test func htmlNeverShowsTheDescriptionOfAnErrorThatIsNotPresentable() async throws {
        let whole = try await render(Page(), as: .html)
        #expect(whole == "<main><h1>Orders</h1>Something went wrong.Something went wrong.</main>")
        let pretty = try await render(Page(), as: .html(pretty: true))
        #expect(!pretty.contains(secret))
        #expect(pretty.contains("Something went wrong."))
    }

    @Test func aStreamNeverShowsTheDescriptionInEitherOrder() async throws {
        for order in [StreamOptions.Order.outOfOrder, .inOrder] {
            let page = try await renderStream(Page(), stream: StreamOptions(order: order)).collect()
            #expect(!page.contains(secret), "\(order)")
            #expect(page.components(separatedBy: "Something went wrong.").count == 3, "\(order)")
        }
    }

    @Test func treeAndPlainKeepTheDescription() async throws {
        let tree = try await render(Page(), as: .tree)
        #expect(tree.components(separatedBy: "\"connection to postgres://app:s3cret@").count == 3)
        #expect(tree.contains("ErrorBoundary #0.1 [caught: connection to postgres://app:s3cret@"))
        let plain = try await render(Page(), as: .plain)
        #expect(plain.components(separatedBy: secret).count == 3)
        #expect(!plain.contains("Something went wrong."))
    }

    @Test func shownDetailsPutTheDescriptionInHTMLForDevelopment() async throws {
        let options = RenderOptions(errorDetails: .shown)
        let whole = try await render(Page(), as: .html, options: options)
        #expect(whole.components(separatedBy: DatabaseDown().description).count == 3)
        #expect(!whole.contains("Something went wrong."))
        for order in [StreamOptions.Order.outOfOrder, .inOrder] {
            let page = try await renderStream(Page(), options: options, stream: StreamOptions(order: order)).collect()
            #expect(page.components(separatedBy: DatabaseDown().description).count == 3, "\(order)")
        }
    }

    @Test func aPresentableErrorShowsItsTitleAndMessageEscapedInHTML() async throws {
        let page = ErrorBoundary { try Throwing(Offline()) }
        #expect(try await render(page, as: .html) == "Offline: The &lt;feed&gt; cannot be reached.")
        #expect(try await render(page, as: .plain) == "Offline: The <feed> cannot be reached.")
        let streamed = try await renderStream(page).collect()
        #expect(streamed == "Offline: The &lt;feed&gt; cannot be reached.")
    }

    @Test func aCustomFallbackCanShowTheErrorAsTheDefaultDoes() async throws {
        let page = ErrorBoundary {
            try Broken()
        } fallback: { error in
            Element("p", attributes: ["class": "error"]) { ErrorMessage(error) }
        }
        #expect(try await render(page, as: .html) == "<p class=\"error\">Something went wrong.</p>")
        #expect(try await render(page, as: .plain) == DatabaseDown().description)
    }

    @Test func theResolvedNodeCarriesBothTextsAndRendersAsRenderDoes() async throws {
        let node = try await resolve(ErrorBoundary { try Broken() })
        let message = Node.Kind.errorMessage(
            presented: "Something went wrong.", description: DatabaseDown().description)
        #expect(node.children.first?.children.first?.kind == message)
        #expect(try node.rendered(as: .html) == "Something went wrong.")
        #expect(try node.rendered(as: .html(pretty: true)) == "Something went wrong.")
        #expect(try node.rendered(as: .plain) == DatabaseDown().description)
        #expect(try node.rendered(as: .tree) == (try await render(ErrorBoundary { try Broken() }, as: .tree)))
        // A tree built by hand renders the same way.
        #expect(try Node(message).rendered(as: .html) == "Something went wrong.")
    }

    @Test func framesKeepBothTexts() async throws {
        let frames = try await resolveFrames(Page())
        let last = try #require(frames.last)
        #expect(try !last.node.rendered(as: .html).contains(secret))
        #expect(try last.node.rendered(as: .plain).contains(secret))
    }
}
