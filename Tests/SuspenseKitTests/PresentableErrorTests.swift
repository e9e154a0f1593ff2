import Testing

@testable import SuspenseKit

private struct Offline: PresentableError, CustomStringConvertible {
    var suggestion: String?
    var title: String { "Offline" }
    var message: String { "The feed cannot be reached." }
    var recoverySuggestion: String? { suggestion }
    var description: String { "offline" }
}

/// Only the requirements without a default: no recovery suggestion.
private struct Unparsable: PresentableError {
    let message: String
    var title: String { "Bad data" }
}

@Suite struct PresentableErrorTests {
    @Test func theDefaultFallbackShowsTheTitleAndTheMessage() async throws {
        #expect(try await html(ErrorBoundary { try Throwing(Offline()) }) == "Offline: The feed cannot be reached.")
    }

    @Test func theDefaultFallbackAddsTheRecoverySuggestionAsASentence() async throws {
        let page = ErrorBoundary { try Throwing(Offline(suggestion: "Check your connection.")) }
        #expect(try await html(page) == "Offline: The feed cannot be reached. Check your connection.")
        let unfinished = ErrorBoundary { try Throwing(Unparsable(message: "no title field")) }
        #expect(try await html(unfinished) == "Bad data: no title field")
    }

    @Test func aMessageWithoutAFullStopGetsOneBeforeTheSuggestion() {
        struct Terse: PresentableError {
            var title: String { "" }
            var message: String { "Timed out" }
            var recoverySuggestion: String? { "Try again later." }
        }
        #expect(describeError(Terse(), suggestion: true) == "Timed out. Try again later.")
        #expect(describeError(Terse(), suggestion: false) == "Timed out")
    }

    @Test func theTreeShowsTheTitleAndTheMessageOnTheBoundarysLine() async throws {
        let page = ErrorBoundary {
            try Throwing(Offline(suggestion: "Check your connection."))
        } fallback: { _ in
            Text("offline")
        }
        #expect(
            try await tree(page) == """
                ErrorBoundary #0 [caught: Offline: The feed cannot be reached.]
                └─ "offline"
                """)
    }

    @Test func theTreeKeepsAMultilineTitleAndMessageOnOneLine() async throws {
        struct Multiline: PresentableError {
            var title: String { "Two\nlines" }
            var message: String { "and\r\na\ttab" }
        }
        #expect(
            try await tree(ErrorBoundary { try Throwing(Multiline()) }) == """
                ErrorBoundary #0 [caught: Two\\nlines: and\\r\\na\\ttab]
                └─ "Two\\nlines: and\\r\\na\\ttab"
                """)
    }

    @Test func aRenderErrorDescribesAPresentableErrorWithItsSuggestion() async throws {
        struct Page: Component {
            var body: some Component {
                Element("main") { try Throwing(Offline(suggestion: "Check your connection.")) }
            }
        }
        let error = try await renderError(Page())
        #expect(error.path == ["Page", "Throwing"])
        #expect(error.underlying is Offline)
        #expect(
            error.description
                == "uncaught error in Page > Throwing: Offline: The feed cannot be reached. Check your connection.")
    }

    @Test func errorsThatAreNotPresentableKeepTheirDescription() async throws {
        #expect(
            try await tree(ErrorBoundary { try Throwing(TestFailure("plain")) }) == """
                ErrorBoundary #0 [caught: plain]
                └─ "plain"
                """)
        let error = try await renderError(Group { try Throwing(TestFailure("plain")) })
        #expect(error.description == "uncaught error in Throwing: plain")
    }

    @Test func aLateFailureShowsItsTitleAndMessage() async throws {
        let page = ErrorBoundary {
            Suspense {
                try Failing("feed", throwing: Offline())
            } fallback: {
                Text("Loading…")
            }
        }
        #expect(
            try await tree(page) == """
                ErrorBoundary #0 [caught: Offline: The feed cannot be reached.]
                └─ "Offline: The feed cannot be reached."
                """)
    }

    @Test func aCustomFallbackReceivesThePresentableErrorItself() async throws {
        let page = ErrorBoundary {
            try Throwing(Offline(suggestion: "Retry."))
        } fallback: { error in
            if let error = error as? any PresentableError {
                Element("h2") { Text(error.title) }
                Element("p") { Text(error.recoverySuggestion ?? "") }
            }
        }
        #expect(try await html(page) == "<h2>Offline</h2><p>Retry.</p>")
    }

    @Test func aPresentableErrorInterpolatesAsItsTitleAndMessage() {
        let concrete = Unparsable(message: "no title field")
        let existential: any Error = concrete
        #expect("\(concrete)" == "Bad data: no title field")
        #expect("\(existential)" == "Bad data: no title field")
        #expect(String(describing: existential) == "Bad data: no title field")
        struct Untitled: PresentableError {
            var title: String { "" }
            var message: String { "Nothing to show." }
        }
        #expect("\(Untitled())" == "Nothing to show.")
    }

    @Test func aDescriptionOfItsOwnIsKept() {
        let existential: any Error = Offline()
        #expect("\(Offline())" == "offline")
        #expect("\(existential)" == "offline")
    }

    @Test func aCustomFallbackInterpolatingThePresentableErrorShowsItsTitleAndMessage() async throws {
        let page = ErrorBoundary {
            try Throwing(Unparsable(message: "a <tag> in the feed"))
        } fallback: { error in
            Text("Could not load: \(error)")
        }
        #expect(try await html(page) == "Could not load: Bad data: a &lt;tag&gt; in the feed")
    }
}
