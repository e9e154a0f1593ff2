import Testing

@testable import SuspenseKit

private struct NetworkError: Error, CustomStringConvertible {
    let code: Int
    var description: String { "network \(code)" }
}

private struct ParseError: Error, CustomStringConvertible {
    let field: String
    var description: String { "cannot parse \(field)" }
}

@Suite struct TypedErrorBoundaryTests {
    @Test func catchesItsTypeAndGivesTheFallbackTheTypedValue() async throws {
        let page = ErrorBoundary(catching: NetworkError.self) {
            try Throwing(NetworkError(code: 503))
        } fallback: { (error: NetworkError) in
            Text("code \(error.code)")
        }
        #expect(
            try await tree(page) == """
                ErrorBoundary #0 [caught: network 503]
                └─ "code 503"
                """)
    }

    @Test func passesOtherErrorsToTheNextBoundaryOutwardInTheFirstPass() async throws {
        let typed = ErrorBoundary(catching: NetworkError.self) {
            try Throwing(ParseError(field: "title"))
        } fallback: { (_: NetworkError) in
            Text("the typed fallback must not show")
        }
        let page = ErrorBoundary {
            Element("main") { typed }
        } fallback: { error in
            Text("outer: \(error)")
        }
        #expect(
            try await tree(page) == """
                ErrorBoundary #0 [caught: cannot parse title]
                └─ "outer: cannot parse title"
                """)
        // Alone, it lets the error out as thrown, located at the component that threw it.
        #expect(try await renderError(typed).path == ["ErrorBoundary", "Throwing"])
    }

    @Test func passesOtherErrorsOutwardWhenAQueryFailsLater() async throws {
        let suspense = Suspense {
            ErrorBoundary(catching: NetworkError.self) {
                try Loaded("a")
                try Failing("b", throwing: ParseError(field: "b"))
            } fallback: { (_: NetworkError) in
                Text("the typed fallback must not show")
            }
        } fallback: {
            Text("Loading…")
        }
        let page = ErrorBoundary {
            suspense
        } fallback: { error in
            Text("outer: \(error)")
        }
        #expect(
            try await tree(page) == """
                ErrorBoundary #0 [caught: cannot parse b]
                └─ "outer: cannot parse b"
                """)
        #expect(try await renderError(suspense).path == ["Suspense", "ErrorBoundary", "Failing"])
    }

    @Test func catchesItsTypeWhenAQueryFailsLater() async throws {
        let page = ErrorBoundary {
            Suspense {
                try Loaded("a")
                ErrorBoundary(catching: NetworkError.self) {
                    try Failing("b", throwing: NetworkError(code: 504))
                } fallback: { (error: NetworkError) in
                    Text("b: code \(error.code)")
                }
            } fallback: {
                Text("Loading…")
            }
        } fallback: { error in
            Text("the outer fallback must not show: \(error)")
        }
        #expect(
            try await tree(page) == """
                ErrorBoundary #0
                └─ Suspense #0.0 [resolved]
                   ├─ Loaded
                   │  └─ "a"
                   └─ ErrorBoundary #0.0.1 [caught: network 504]
                      └─ "b: code 504"
                """)
    }

    @Test func anUntypedBoundaryInsideATypedOneCatchesEveryError() async throws {
        let page = ErrorBoundary(catching: NetworkError.self) {
            ErrorBoundary {
                try Throwing(NetworkError(code: 1))
            } fallback: { error in
                Text("inner: \(error)")
            }
        } fallback: { (_: NetworkError) in
            Text("the outer fallback must not show")
        }
        #expect(
            try await tree(page) == """
                ErrorBoundary #0
                └─ ErrorBoundary #0.0 [caught: network 1]
                   └─ "inner: network 1"
                """)
    }

    @Test func typedBoundariesOfDifferentTypesEachCatchTheirOwn() async throws {
        func nested(_ error: any Error) -> some Component {
            ErrorBoundary(catching: ParseError.self) {
                ErrorBoundary(catching: NetworkError.self) {
                    try Throwing(error)
                } fallback: { (error: NetworkError) in
                    Text("network \(error.code) inside")
                }
            } fallback: { (error: ParseError) in
                Text("parse \(error.field) outside")
            }
        }
        let page = Group {
            nested(ParseError(field: "x"))
            nested(NetworkError(code: 2))
        }
        #expect(
            try await tree(page) == """
                ErrorBoundary #0 [caught: cannot parse x]
                └─ "parse x outside"
                ErrorBoundary #1
                └─ ErrorBoundary #1.0 [caught: network 2]
                   └─ "network 2 inside"
                """)
    }

    @Test func anErrorNoBoundaryCatchesMakesTheRenderThrow() async throws {
        let page = ErrorBoundary(catching: NetworkError.self) {
            ErrorBoundary(catching: ParseError.self) {
                try Throwing(TestFailure("neither"))
            } fallback: { (_: ParseError) in
                Text("must not show")
            }
        } fallback: { (_: NetworkError) in
            Text("must not show")
        }
        let error = try await renderError(page)
        #expect(error.path == ["ErrorBoundary", "ErrorBoundary", "Throwing"])
        #expect(error.underlying as? TestFailure == TestFailure("neither"))
    }

    @Test func aLateErrorNoBoundaryCatchesMakesTheRenderThrow() async throws {
        let page = ErrorBoundary(catching: NetworkError.self) {
            Suspense {
                try Failing("late", message: "late failure")
            } fallback: {
                Text("Loading…")
            }
        } fallback: { (_: NetworkError) in
            Text("must not show")
        }
        let error = try await renderError(page)
        #expect(error.path == ["ErrorBoundary", "Suspense", "Failing"])
        #expect(error.underlying as? TestFailure == TestFailure("late failure"))
    }

    @Test func anErrorFromAFallbackSkipsTypedBoundariesOfAnotherType() async throws {
        func page(fallbackThrows error: any Error) -> some Component {
            ErrorBoundary {
                ErrorBoundary(catching: NetworkError.self) {
                    ErrorBoundary {
                        try Throwing(TestFailure("inner"))
                    } fallback: { _ in
                        try Throwing(error)
                    }
                } fallback: { (error: NetworkError) in
                    Text("middle: \(error)")
                }
            } fallback: { error in
                Text("outer: \(error)")
            }
        }
        #expect(try await html(page(fallbackThrows: ParseError(field: "fallback"))) == "outer: cannot parse fallback")
        #expect(try await html(page(fallbackThrows: NetworkError(code: 9))) == "middle: network 9")
    }

    @Test func aPromiseIsNeverAnErrorEvenToABoundaryOfItsType() async throws {
        let page = ErrorBoundary(catching: Promise<String>.self) {
            Suspense {
                try Loaded("a")
            } fallback: {
                Text("Loading…")
            }
            try Loaded("b")
        } fallback: { (_: Promise<String>) in
            Text("a promise was caught as an error")
        }
        #expect(
            try await tree(page) == """
                ErrorBoundary #0
                ├─ Suspense #0.0 [resolved]
                │  └─ Loaded
                │     └─ "a"
                └─ Loaded
                   └─ "b"
                """)
    }

    @Test func theTypedFormWithTheDefaultFallbackShowsTheError() async throws {
        let caught = ErrorBoundary(catching: NetworkError.self) { try Throwing(NetworkError(code: 7)) }
        #expect(try await render(caught, as: .plain) == "network 7")
        #expect(try await html(caught) == "Something went wrong.")
        let passed = ErrorBoundary {
            ErrorBoundary(catching: NetworkError.self) { try Throwing(ParseError(field: "y")) }
        } fallback: { error in
            Text("outer: \(error)")
        }
        #expect(try await html(passed) == "outer: cannot parse y")
    }

    @Test func aLateErrorShowsAtTheBoundaryThatCaughtItInTheTreeFramesAndStream() async throws {
        struct Page: Component {
            let gates: Gates?
            var body: some Component {
                Element("main") {
                    ErrorBoundary {
                        Element("p") { Text("outside") }
                        ErrorBoundary(catching: NetworkError.self) {
                            Suspense {
                                if let gates {
                                    try Gated("x", gates: gates, fails: true)
                                } else {
                                    try Failing("x", message: "x failed")
                                }
                            } fallback: {
                                Text("loading x")
                            }
                        } fallback: { (_: NetworkError) in
                            Text("the typed fallback must not show")
                        }
                    } fallback: { error in
                        Element("p") { Text("failed: \(error)") }
                    }
                }
            }
        }
        let caught = """
            Page
            └─ <main>
               └─ ErrorBoundary #0.0 [caught: x failed]
                  └─ <p>
                     └─ "failed: x failed"
            """
        #expect(try await tree(Page(gates: nil)) == caught)

        let frames = try await resolveFrames(Page(gates: nil))
        #expect(frames.count == 2)
        #expect(try frames.last?.rendered(as: .tree) == caught)

        let gates = Gates()
        var chunks = ChunkReader(try await renderStream(Page(gates: gates)))
        #expect(
            try await chunks.next()
                == "<main><!--sk:0.0--><p>outside</p><!--sk:0.0.1--><!--sk:0.0.1.0-->loading x"
                + "<!--/sk:0.0.1.0--><!--/sk:0.0.1--><!--/sk:0.0--></main>")
        gates.open("x")
        let late = try await chunks.next()
        #expect(late.hasPrefix("<template><p>failed: x failed</p></template><script>"))
        #expect(late.hasSuffix("$sk(\"0.0\")</script>"))
        #expect(try await chunks.next() == streamCleanup)
        try await chunks.end()
    }
}
