import Testing

@testable import SuspenseKit

private struct Card: Component {
    let value: String
    init(_ key: String) throws {
        value = try resolveValue(key: key) {
            await Task.yield()  // suspends, as a real fetch would
            return key
        }
    }
    var body: some Component { Text(value) }
}

private struct ThrowsInBody: Component {
    var body: some Component {
        get throws { throw TestFailure("body failed") }
    }
}

private struct Page: Component {
    var body: some Component {
        ErrorBoundary {
            Suspense {
                try Failing("user/1", message: "user 1 is gone")
            } fallback: {
                Text("Loading…")
            }
        } fallback: { error in
            Text("Could not load: \(error)")
        }
    }
}

private struct Unprotected: Component {
    var body: some Component {
        Element("main") {
            Suspense {
                try Card("ok")
                try Failing("user/1", message: "user 1 is gone")
            }
        }
    }
}

@Suite struct ErrorBoundaryTests {
    @Test func aFailedQueryRethrowsAtTheComponentAndReachesTheBoundaryOutsideTheSuspense() async throws {
        #expect(
            try await tree(Page()) == """
                Page
                └─ ErrorBoundary #0 [caught: user 1 is gone]
                   └─ "Could not load: user 1 is gone"
                """)
    }

    @Test func aFailedQueryReachesTheNearestBoundaryInsideTheSuspense() async throws {
        let page = Suspense {
            try Card("a")
            ErrorBoundary {
                try Failing("b", message: "b failed")
            } fallback: { _ in
                Text("b unavailable")
            }
            try Card("c")
        } fallback: {
            Text("Loading…")
        }
        #expect(
            try await tree(page) == """
                Suspense #0 [resolved]
                ├─ Card
                │  └─ "a"
                ├─ ErrorBoundary #0.1 [caught: b failed]
                │  └─ "b unavailable"
                └─ Card
                   └─ "c"
                """)
    }

    @Test func theDefaultFallbackShowsAGenericMessageInHTMLAndTheDescriptionInText() async throws {
        let page = ErrorBoundary { try Thrower("plain failure") }
        #expect(try await html(page) == "Something went wrong.")
        #expect(try await render(page, as: .plain) == "plain failure")
    }

    @Test func errorsFromInitializersAndBodiesAreCaughtAlike() async throws {
        let page = Group {
            ErrorBoundary {
                try Thrower("init failed")
            } fallback: {
                Text("1: \($0)")
            }
            ErrorBoundary {
                ThrowsInBody()
            } fallback: {
                Text(" 2: \($0)")
            }
        }
        #expect(try await html(page) == "1: init failed 2: body failed")
    }

    @Test func anErrorFromAnErrorBoundaryFallbackGoesToTheNextBoundaryOutside() async throws {
        let page = ErrorBoundary {
            ErrorBoundary {
                try Thrower("inner")
            } fallback: { error in
                try Thrower("fallback of \(error)")
            }
        } fallback: { error in
            Text("outer caught: \(error)")
        }
        #expect(try await html(page) == "outer caught: fallback of inner")
    }

    @Test func anErrorFromASuspenseFallbackGoesToTheBoundaryOutsideTheSuspense() async throws {
        let page = ErrorBoundary {
            Suspense {
                ErrorBoundary {
                    try Card("slow")
                } fallback: { _ in
                    Text("inner boundary must not catch the fallback's error")
                }
            } fallback: {
                try Thrower("fallback broke")
            }
        } fallback: { error in
            Text("outer caught: \(error)")
        }
        #expect(try await html(page) == "outer caught: fallback broke")
    }

    @Test func aFailureAfterResolutionRoutesThroughTheFallbackChain() async throws {
        // The failure arrives asynchronously; the inner fallback throws, so the outer boundary
        // shows its fallback.
        let page = ErrorBoundary {
            Suspense {
                ErrorBoundary {
                    try Failing("late", message: "late failure")
                } fallback: { error in
                    try Thrower("inner fallback failed on \(error)")
                }
            }
        } fallback: { error in
            Text("outer: \(error)")
        }
        #expect(try await html(page) == "outer: inner fallback failed on late failure")
    }

    @Test func anUncaughtErrorNamesTheComponentPath() async throws {
        let error = try await renderError(Unprotected())
        #expect(error.path == ["Unprotected", "Suspense", "Failing"])
        #expect(error.underlying as? TestFailure == TestFailure("user 1 is gone"))
        #expect(error.description == "uncaught error in Unprotected > Suspense > Failing: user 1 is gone")
    }

    @Test func anUncaughtErrorInTheFirstPassNamesThePathToo() async throws {
        let page = ErrorBoundary {
            Text("fine")
        } fallback: { _ in
            Text("unused")
        }
        let error = try await renderError(
            Group {
                page; try Thrower("top")
            })
        #expect(error.path == ["Thrower"])
        let nested = try await renderError(Element("div") { ThrowsInBody() })
        #expect(nested.path == ["ThrowsInBody"])
    }

    @Test func theBoundaryThatCaughtDiscardsSuspendedContentBeneathIt() async throws {
        // "slow" never gets to show: the boundary caught the sibling's error in the same pass, and
        // the Suspense around both resolves with its fallback. Its query started when its
        // component asked for it; nobody waits for it, so it is cancelled and nothing is stored.
        let runs = Counter()
        let cache = QueryCache()
        let page = Suspense {
            ErrorBoundary {
                try Loaded("slow", runs: runs)
                try Thrower("sibling failed")
            } fallback: { _ in
                Text("fallback")
            }
        } fallback: {
            Text("Loading…")
        }
        #expect(
            try await render(page, as: .tree, cache: cache) == """
                Suspense #0 [resolved]
                └─ ErrorBoundary #0.0 [caught: sibling failed]
                   └─ "fallback"
                """)
        #expect(runs.value == 1)
        #expect(!cache.contains("slow"))
        #expect(cache.runningQueryCount == 0)
    }
}
