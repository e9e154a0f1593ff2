import SuspenseKit
import SuspenseTesting
import Testing

/// SuspenseKit's rendering, pinned in golden files: the `.tree` structure and the HTML of each
/// Suspense and ErrorBoundary state, with query outcomes fixed by key.
@Suite(.snapshots) struct RenderingSnapshotTests {
    let ann = Member(name: "Ann")
    let bo = Member(name: "Bo")

    /// Two members under one Suspense, inside an ErrorBoundary.
    struct MembersPage: Component {
        var body: some Component {
            Element("main") {
                Element("h1") { Text("Members") }
                ErrorBoundary {
                    Suspense {
                        try MemberCard(id: 1)
                        try MemberCard(id: 2)
                    } fallback: {
                        Element("p", attributes: ["class": "loading"]) { Text("Loading members…") }
                    }
                } fallback: { error in
                    Element("p", attributes: ["class": "error"]) { Text("Could not load: \(error)") }
                }
            }
        }
    }

    /// What ``FailingFallback`` throws.
    struct FallbackFailed: Error, CustomStringConvertible {
        let original: any Error
        var description: String { "the fallback failed while showing \"\(original)\"" }
    }

    /// A fallback that fails in turn.
    struct FailingFallback: Component {
        init(after error: any Error) throws {
            throw FallbackFailed(original: error)
        }

        var body: some Component { EmptyComponent() }
    }

    @Test func staticMarkupIsEscapedInEveryFormat() async {
        let page = Element("article", attributes: ["id": "intro", "title": "\"Quotes\" & <angles>"]) {
            Element("h2") { Text("Fish & Chips <today>") }
            Element("p") {
                Text("Line one")
                Element("br")
                Text("it's \"quoted\"")
            }
            Element("img", attributes: ["src": "/a.png", "alt": "A"])
            RawHTML("<em>trusted</em>")
        }
        await assertSnapshot(of: page, as: .tree)
        await assertSnapshot(of: page, as: .plain)
        await assertSnapshot(of: page, as: .html)
        await assertSnapshot(of: page, as: .html(pretty: true))
    }

    @Test func suspenseShowsItsContentOnceEveryQueryResolved() async {
        let outcomes: FixedOutcomes = ["member/1": .value(ann), "member/2": .value(bo)]
        await assertSnapshot(of: MembersPage(), as: .tree, outcomes: outcomes)
        await assertSnapshot(of: MembersPage(), as: .html(pretty: true), outcomes: outcomes)
    }

    @Test func suspenseShowsItsFallbackWhileAnyQueryIsPending() async {
        let outcomes: FixedOutcomes = ["member/1": .value(ann), "member/2": .pending]
        await assertSnapshot(of: MembersPage(), as: .tree, outcomes: outcomes)
        await assertSnapshot(of: MembersPage(), as: .html(pretty: true), outcomes: outcomes)
    }

    @Test func failedQueryReachesTheErrorBoundaryOutsideTheSuspense() async {
        let outcomes: FixedOutcomes = ["member/1": .value(ann), "member/2": .failure(NotFound(key: "member/2"))]
        await assertSnapshot(of: MembersPage(), as: .tree, outcomes: outcomes)
        await assertSnapshot(of: MembersPage(), as: .html(pretty: true), outcomes: outcomes)
    }

    @Test func framesShowTheFallbackThenEachResult() async {
        await assertSnapshot(
            of: MembersPage(),
            as: .frames,
            outcomes: ["member/1": .value(ann), "member/2": .value(bo)],
            named: "loaded"
        )
        await assertSnapshot(
            of: MembersPage(),
            as: .frames(.html),
            outcomes: ["member/1": .value(ann), "member/2": .failure(NotFound(key: "member/2"))],
            named: "failed"
        )
    }

    @Test func nestedSuspenseResolvesOnItsOwn() async {
        let page = Suspense {
            try MemberCard(id: 1)
            Suspense {
                try MemberCard(id: 2)
            } fallback: {
                Text("Loading the second member…")
            }
        } fallback: {
            Text("Loading…")
        }
        await assertSnapshot(of: page, as: .tree, outcomes: ["member/1": .value(ann), "member/2": .pending])
        await assertSnapshot(of: page, as: .frames, outcomes: ["member/1": .value(ann), "member/2": .value(bo)])
    }

    @Test func errorBoundaryInsideSuspenseKeepsItsSiblings() async {
        let page = Suspense {
            try MemberCard(id: 1)
            ErrorBoundary {
                try MemberCard(id: 2)
            } fallback: { error in
                Element("p", attributes: ["class": "error"]) { Text("\(error)") }
            }
        } fallback: {
            Text("Loading…")
        }
        let outcomes: FixedOutcomes = ["member/1": .value(ann), "member/2": .failure(NotFound(key: "member/2"))]
        await assertSnapshot(of: page, as: .tree, outcomes: outcomes)
        await assertSnapshot(of: page, as: .html, outcomes: outcomes)
    }

    @Test func errorFromAFallbackGoesToTheNextBoundaryOutside() async {
        let page = ErrorBoundary {
            ErrorBoundary {
                try MemberCard(id: 2)
            } fallback: { error in
                try FailingFallback(after: error)
            }
        } fallback: { error in
            Text("Outer caught: \(error)")
        }
        let waiting = Suspense {
            page
        } fallback: {
            Text("Loading…")
        }
        await assertSnapshot(
            of: waiting,
            as: .tree,
            outcomes: ["member/2": .failure(NotFound(key: "member/2"))]
        )
    }

    @Test func queriesOfSiblingsInsideAnElementStartTogether() async {
        let page = Suspense {
            Element("div", attributes: ["class": "members"]) {
                try MemberCard(id: 1)
                try MemberCard(id: 2)
            }
        } fallback: {
            Text("Loading…")
        }
        await assertSnapshot(of: page, as: .frames, outcomes: ["member/1": .value(ann), "member/2": .value(bo)])
    }

    @Test func emptyListShowsItsEmptyState() async {
        let page = Suspense {
            try PostList()
        } fallback: {
            Text("Loading posts…")
        }
        await assertSnapshot(of: page, as: .tree, outcomes: ["posts": .value([String]())])
        await assertSnapshot(of: page, as: .plain, outcomes: ["posts": .value(["First", "Second"])])
    }

    @Test func typedSuspenseTakesTheValueOfAKeylessPromise() async {
        let page = Suspense { (member: Member?) in
            Element("p") {
                Text(try resolveValue(member) { () async throws -> Member in throw Unstubbed(key: "keyless") }.name)
            }
        }
        await assertSnapshot(of: page, as: .frames, outcomes: ["Promise<Member>": .value(bo)])
    }
}
