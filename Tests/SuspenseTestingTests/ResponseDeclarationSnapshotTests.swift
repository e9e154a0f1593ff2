import SuspenseKit
import SuspenseTesting
import Testing

/// A product page that answers 404 from inside the tree when its product does not exist.
private struct ProductPage: Component {
    let id: Int
    var body: some Component {
        Element("main") {
            Element("h1") { Text("Shop") }
            ErrorBoundary {
                Suspense {
                    try ProductDetails(id: id)
                } fallback: {
                    Text("Loading product…")
                }
            } fallback: { _ in
                Text("The product could not be loaded.")
            }
        }
        .responseHeader("Vary", "Accept-Language")
    }
}

private struct ProductDetails: Component {
    let name: String?
    init(id: Int) throws {
        name = try resolveValue(key: "product/\(id)") { () async throws -> String? in throw Unstubbed(key: "product") }
    }
    var body: some Component {
        if let name {
            Element("p") { Text(name) }
                .responseHeader("Cache-Control", "public, max-age=60")
        } else {
            Element("p") { Text("No such product.") }
                .httpStatus(.notFound)
                .responseHeader("Cache-Control", "no-store")
        }
    }
}

/// A page behind a login: redirects when there is no session.
private struct AccountPage: Component {
    let session: String?
    init() throws {
        session = try resolveValue(key: "session") { () async throws -> String? in throw Unstubbed(key: "session") }
    }
    var body: some Component {
        if let session {
            Element("p") { Text("Signed in as \(session)") }
        } else {
            Element("p") { Text("Signing in…") }
                .httpStatus(.unauthorized)
                .redirect(to: "/login?next=%2Faccount")
        }
    }
}

/// What a page declares about its response, pinned in `.tree` golden files (the declarations
/// are nodes that only `.tree` shows) and read back as a ``ResponseHead``.
@Suite(.snapshots) struct ResponseDeclarationSnapshotTests {
    /// The response head of `page` once its shell is ready: the stream's, so that a query left
    /// pending does not hold the test.
    private func shellHead<C: Component>(_ page: @autoclosure @escaping () throws -> C, _ outcomes: FixedOutcomes)
        async throws -> ResponseHead
    {
        try await renderStream(try page(), cache: outcomes.makeCache()).responseHead
    }

    @Test func statusAndHeaderDeclaredBeforeTheShell() async throws {
        let outcomes: FixedOutcomes = ["product/7": .value(String?.none)]
        await assertSnapshot(of: ProductPage(id: 7), as: .tree, outcomes: outcomes)
        let page = try await renderResponse(ProductPage(id: 7), cache: outcomes.makeCache())
        #expect(page.head.status == .notFound)
        #expect(page.head.headers == ["Vary": "Accept-Language", "Cache-Control": "no-store"])
        #expect(page.body == "<main><h1>Shop</h1><p>No such product.</p></main>")
    }

    @Test func aHeaderDeclaredWithoutAStatus() async throws {
        let outcomes: FixedOutcomes = ["product/1": .value(String?.some("Lamp"))]
        await assertSnapshot(of: ProductPage(id: 1), as: .tree, outcomes: outcomes)
        let page = try await renderResponse(ProductPage(id: 1), cache: outcomes.makeCache())
        #expect(page.head.status == nil)
        #expect(page.head.headers["cache-control"] == "public, max-age=60")
        #expect(page.head.location == nil)
    }

    @Test func aRedirectBeatsTheStatus() async throws {
        let outcomes: FixedOutcomes = ["session": .value(String?.none)]
        await assertSnapshot(of: try AccountPage(), as: .tree, outcomes: outcomes)
        let page = try await renderResponse(AccountPage(), cache: outcomes.makeCache())
        #expect(page.head.status == .seeOther)
        #expect(page.head.location == "/login?next=%2Faccount")
        #expect(page.head.headers == ["Location": "/login?next=%2Faccount"])
        #expect(!page.body.contains("meta"))
    }

    @Test func aDeclarationInsideAFallbackShowingSuspenseIsWithdrawn() async throws {
        let outcomes: FixedOutcomes = ["product/7": .pending]
        await assertSnapshot(of: ProductPage(id: 7), as: .tree, outcomes: outcomes)
        let head = try await shellHead(ProductPage(id: 7), outcomes)
        #expect(head.status == nil)
        #expect(head.headers == ["Vary": "Accept-Language"])
    }

    @Test func aDeclarationInsideAnErrorBoundaryThatCaughtIsWithdrawn() async throws {
        struct Page: Component {
            var body: some Component {
                ErrorBoundary {
                    Text("partial").httpStatus(.gone)
                    try ProductDetails(id: 3)
                } fallback: { _ in
                    Text("failed")
                }
            }
        }
        let outcomes: FixedOutcomes = ["product/3": .failure(NotFound(key: "product/3"))]
        await assertSnapshot(of: Page(), as: .tree, outcomes: outcomes)
        let page = try await renderResponse(Page(), cache: outcomes.makeCache())
        #expect(page.head == ResponseHead())
    }
}
