import SuspenseKit
import SuspenseTesting
import Testing

// The Swift examples of README.md, and of the DocC articles they moved to, compiled and run as
// written there (top-level declarations made private, lines laid out by swift-format). README.md:
// the hero and the Suspense, ErrorBoundary, rendering and streaming snippets; its snapshot-testing
// excerpt is `Tests/SuspenseTestingTests/UserProfileSnapshotTests.swift` itself. The articles in
// Sources/SuspenseKit/SuspenseKit.docc: Components, UsingTheEnvironment, Queries, Errors, Time, Rendering
// and Streaming; in Sources/SuspenseTesting/SuspenseTesting.docc: SnapshotTesting's inline assertion.

// The README's hero example.
private struct User: Sendable { let name: String }

private enum API {
    static func user(_ id: Int) async throws -> User {
        try await Task.sleep(for: .milliseconds(50))
        return User(name: id == 1 ? "Ann" : "Bob")
    }
}

private struct UserCard: Component {
    let user: User

    init(id: Int) throws {  // suspends until the query has run
        user = try resolveValue(key: "user/\(id)") { try await API.user(id) }
    }

    var body: some Component {
        Element("p") { Text("Hi, my name is \(user.name).") }
    }
}

private struct Page: Component {
    var body: some Component {
        ErrorBoundary {
            Suspense {
                try UserCard(id: 1)  // both queries start at once
                try UserCard(id: 2)
            } fallback: {
                Text("Loading…")
            }
        } fallback: { error in
            Text("Could not load: \(error)")
        }
    }
}

// The UsingTheEnvironment article's example.
private struct LocaleKey: EnvironmentKey {
    static let defaultValue = "en"
}

extension EnvironmentValues {
    fileprivate var locale: String {
        get { self[LocaleKey.self] }
        set { self[LocaleKey.self] = newValue }
    }
}

extension API {
    fileprivate static func name(_ id: Int, locale: String) async throws -> String {
        await Task.yield()
        return id == 1 ? "Ann" : "Bob"
    }
}

private struct Greeting: Component {
    @Environment(\.locale) var locale
    let name: String

    init(id: Int) throws {
        @Environment(\.locale) var locale  // readable in an initializer, and by a query
        name = try resolveValue(key: "name/\(id)/\(locale)") { [locale] in
            try await API.name(id, locale: locale)
        }
    }

    var body: some Component {
        Element("p") { Text(locale == "fr" ? "Bonjour \(name)" : "Hello \(name)") }
    }
}

private struct Greetings: Component {
    var body: some Component {
        Suspense {
            try Greeting(id: 1)  // "Hello Ann": the default
            Group { try Greeting(id: 2) }.environment(\.locale, "fr")  // "Bonjour Bob"
        }
    }
}

// What the Errors and Time articles' snippets log into: `logger` for the error callbacks, `log` for
// the deadline.
private struct ReadmeLogger: Sendable {
    let entries = Log()
    func warning(_ message: String) { entries.append("warning: \(message)") }
    func error(_ message: String) { entries.append("error: \(message)") }
}

private let logger = ReadmeLogger()
private let log = ReadmeLogger()

/// The Time article's timeout example: a card whose query outlasts its Suspense's timeout.
private struct StatsCard: Component {
    let count: Int
    init() throws {
        count = try resolveValue(key: "stats") {
            try await Task.sleep(for: .seconds(3600))
            return 0
        }
    }
    var body: some Component { Text("\(count) visits") }
}

// The Components article's main-actor example (isolated conformances need Swift 6.2).
#if compiler(>=6.2)
    @MainActor private final class Session { var userName = "Ann" }

    @MainActor
    private struct Header: @MainActor Component {
        let session: Session
        var body: some Component { Element("h1") { Text("Hello \(session.userName)") } }
    }

    @MainActor private func page(_ session: Session) async throws -> String {
        try await render(Header(session: session), as: .html)  // also renderStream, resolveFrames
    }
#endif

// The Errors article's presentable error.
private struct Offline: PresentableError {
    var title: String { "Offline" }
    var message: String { "The feed cannot be reached." }
    var recoverySuggestion: String? { "Check your connection and try again." }
}

/// What the Errors article's typed boundary catches.
private struct NetworkError: Error, CustomStringConvertible {
    let code: Int
    var description: String { "network error \(code)" }
}

/// The Queries article's flaky source: `feed()` fails twice, then answers.
private final class FlakyAPI: Sendable {
    let calls = Log()
    func feed() async throws -> [String] {
        calls.append("feed")
        await Task.yield()
        if calls.all.count < 3 { throw NetworkError(code: 503) }
        return ["River bursts its banks"]
    }
}

private let api = FlakyAPI()

/// The Queries article's retry example, in the initializer of a component.
private struct FlakyFeed: Component {
    let headlines: [String]
    init() throws {
        // A flaky source: up to three runs, 100 ms then 200 ms apart (at most 5 s, optional jitter).
        let feed = try resolveValue(key: "feed", retry: RetryPolicy(maxAttempts: 3)) {
            try await api.feed()
        }
        headlines = feed
    }
    var body: some Component { ForEach(headlines) { headline in Element("p") { Text(headline) } } }
}

/// The Queries article's two keys read at once.
extension API {
    fileprivate static func posts(_ id: Int) async throws -> [String] {
        try await Task.sleep(for: .milliseconds(50))
        return ["Post \(id)"]
    }
}

private struct UserWithPosts: Component {
    let user: User
    let posts: [String]
    init(id: Int) throws {
        (user, posts) = try resolveValues(
            ("user/\(id)", { try await API.user(id) }),
            ("posts/\(id)", { try await API.posts(id) })
        )
    }
    var body: some Component { Element("p") { Text("\(user.name): \(posts.joined())") } }
}

/// What the Rendering article's `.plain` example lists.
private struct Post: Sendable {
    let title: String
    let summary: String
}

/// Where the streaming example writes its chunks.
private actor Response {
    var chunks: [String] = []
    func write(_ chunk: String) async throws { chunks.append(chunk) }
}

@Suite struct ReadmeTests {
    @Test func theEnvironmentExampleGreetsInEachPlacesLocale() async throws {
        let cache = QueryCache()
        #expect(try await render(Greetings(), as: .plain, cache: cache) == "Hello Ann\nBonjour Bob")
        #expect(cache.value(for: "name/2/fr", as: String.self) == "Bob")
    }

    /// The Rendering article's `render` with every argument, then `resolve` and `Node.rendered(as:)`. The
    /// deadline is measured on a test clock, which never moves here: on a loaded machine the
    /// real one could pass two seconds before the queries' 50 ms are over.
    @Test func theRenderingExamplesGiveTheSamePageEveryWay() async throws {
        let cache = QueryCache()  // shared by the renders that use it
        let options = RenderOptions(deliveryOrder: .discovery, clock: TestClock(), deadline: .seconds(2))
        let page = try await render(Page(), as: .html(pretty: true), cache: cache, options: options)
        #expect(page.contains("Hi, my name is Ann."))
        #expect(cache.value(for: "user/2", as: User.self)?.name == "Bob")
        let node = try await resolve(Page(), cache: cache)
        #expect(try node.rendered(as: .html(pretty: true)) == page)
        #expect(try node.rendered(as: .plain) == "Hi, my name is Ann.\nHi, my name is Bob.")
        cache.removeValue(for: "user/2")
        #expect(cache.value(for: "user/2", as: User.self) == nil)
        #expect(cache.value(for: "user/1", as: User.self)?.name == "Ann")
    }

    /// The Errors article's render-wide hooks, as written there (set with methods).
    @Test func theErrorCallbackExampleReportsWhatItsBoundaryCaught() async throws {
        struct Page: Component {
            var body: some Component {
                ErrorBoundary {
                    Suspense {
                        try Failing("feed", message: "Offline")
                    } fallback: {
                        Text("Loading…")
                    }
                } fallback: { _ in
                    Text("The feed cannot be reached.")
                }
            }
        }
        let options = RenderOptions()
            .onCaughtError { failure in logger.warning("\(failure.boundary): \(failure.error)") }
            .onUncaughtError { error in logger.error("\(error)") }
        let html = try await render(Page(), options: options)
        #expect(html == "The feed cannot be reached.")
        #expect(logger.entries.all == ["warning: 0: Offline"])
    }

    /// The Time article's deadline example: a page done in time never calls the hook.
    /// (`RenderOptionsTests` proves the hook fires when the deadline passes, on a test clock.)
    @Test func theDeadlineExampleCompilesAndRendersAPageDoneInTime() async throws {
        struct Page: Component {
            var body: some Component { Suspense { Element("p") { Text("Hi") } } }
        }
        // The whole page within one second: whatever is still pending keeps its fallback.
        let options = RenderOptions(deadline: .seconds(1)).onDeadline { cutOff in
            log.warning("cut off: \(cutOff)")  // one TimeoutError per boundary left pending
        }
        let html = try await render(Page(), options: options)
        #expect(html == "<p>Hi</p>")
        #expect(log.entries.all.isEmpty)
    }

    /// The Time article's timeout example, run on a test clock as its "Test time" snippet shows.
    @Test func theTimeoutExampleShowsTheFallbackOnceTheClockPassesIt() async throws {
        struct Page: Component {
            var body: some Component {
                ErrorBoundary {
                    Suspense(timeout: .seconds(2)) {
                        try StatsCard()
                    } fallback: {
                        Text("Loading…")
                    }
                } fallback: { error in
                    Text("Stats are slow today.")
                }
            }
        }
        let clock = TestClock()
        async let page = render(Page(), as: .tree, options: RenderOptions(clock: clock))
        await clock.waitForSleepers(1)  // the Suspense's timeout is armed
        clock.advance(by: .seconds(2))  // and fires
        let caught = "caught: Page > ErrorBoundary > Suspense timed out after 2.0 seconds waiting on stats"
        #expect(
            try await page == """
                Page
                └─ ErrorBoundary #0 [\(caught)]
                   └─ "Stats are slow today."
                """)
    }

    @Test func theHeroExamplePrintsWhatTheReadmeShows() async throws {
        #expect(
            try await render(Page(), as: .tree) == """
                Page
                └─ ErrorBoundary #0
                   └─ Suspense #0.0 [resolved]
                      ├─ UserCard
                      │  └─ <p>
                      │     └─ "Hi, my name is Ann."
                      └─ UserCard
                         └─ <p>
                            └─ "Hi, my name is Bob."
                """)
    }

    /// README, Suspense: the two forms, with and without a fallback of their own.
    @Test func theSuspenseExampleShowsEachFallbackWhileTheCardLoads() async throws {
        struct Page: Component {
            var body: some Component {
                Suspense {
                    try UserCard(id: 1)
                } fallback: {
                    Text("Loading…")
                }
                Suspense { try UserCard(id: 1) }  // fallback "Loading…"
            }
        }
        let cache = QueryCache()
        cache.stub(.pending, for: "user/1")
        #expect(try await render(Page(), as: .plain, cache: cache) == "Loading…Loading…")
        #expect(try await render(Page(), as: .plain) == "Hi, my name is Ann.\nHi, my name is Ann.")
    }

    /// README and the Errors article: a fallback of one's own, and the default one.
    @Test func theErrorBoundaryExampleShowsTheFailureBothWays() async throws {
        struct Page: Component {
            var body: some Component {
                ErrorBoundary {
                    try UserCard(id: 1)
                } fallback: { error in
                    Text("Could not load: \(error)")
                }
                ErrorBoundary { try UserCard(id: 1) }  // the default fallback: ErrorMessage
            }
        }
        let cache = QueryCache()
        cache.stub(.failure(TestFailure("no such user")), for: "user/1")
        #expect(try await render(Page(), as: .plain, cache: cache) == "Could not load: no such userno such user")
        // In HTML the default fallback hides a description that is not presentable.
        #expect(
            try await render(Page(), as: .html, cache: cache) == "Could not load: no such userSomething went wrong.")
    }

    /// README, Rendering: every format, the Node tree and the frames.
    @Test func theReadmeRenderingExampleGivesEveryFormat() async throws {
        let html = try await render(Page(), as: .html)  // escaped HTML on one line
        let pretty = try await render(Page(), as: .html(pretty: true))
        let text = try await render(Page(), as: .plain)  // visible text, for a terminal
        let tree = try await render(Page(), as: .tree)  // the golden format
        let node = try await resolve(Page())  // the resolved Node tree itself
        let frames = try await resolveFrames(Page())  // the shell, then each state after it
        #expect(html == "<p>Hi, my name is Ann.</p><p>Hi, my name is Bob.</p>")
        #expect(pretty.contains("<p>Hi, my name is Bob.</p>"))
        #expect(text == "Hi, my name is Ann.\nHi, my name is Bob.")
        #expect(try node.rendered(as: .tree) == tree)
        #expect(frames.first?.cause == .shell)
        #expect(try frames.last?.rendered(as: .tree) == tree)
    }

    /// The Rendering article's first example, which adds `Node.rendered(as:)` and printing.
    @Test func theRenderingArticleExampleRendersANodeAgain() async throws {
        let html = try await render(Page(), as: .html)  // escaped HTML on one line
        let pretty = try await render(Page(), as: .html(pretty: true))
        let text = try await render(Page(), as: .plain)  // visible text, for a terminal
        let tree = try await render(Page(), as: .tree)  // the golden format
        let node = try await resolve(Page())  // the resolved Node tree itself
        let again = try node.rendered(as: .plain)  // a Node renders in any format
        let frames = try await resolveFrames(Page())  // the shell, then each state after it
        print(node)  // a Node or a frame prints as its .tree
        #expect(again == text)
        #expect(node.description == tree)
        #expect(try node.rendered(as: .html) == html)
        #expect(try node.rendered(as: .html(pretty: true)) == pretty)
        #expect(frames.count >= 2)
    }

    /// The Rendering article's `.plain` example, and the text it says it shows.
    @Test func thePlainExampleShowsWhatTheArticleSays() async throws {
        struct Blog: Component {
            let posts: [Post]
            var body: some Component {
                ForEach(posts) { post in
                    Element("article") {
                        Element("h2") { Text(post.title) }
                        Element("p") { Text(post.summary) }
                    }
                }
                RawHTML("<ul><li>one</li><li>two &amp; <!-- not shown --><ul><li>nested</li></ul></li></ul>")
            }
        }
        let posts = [
            Post(title: "Release 1.0", summary: "Streaming is here."),
            Post(title: "Release 1.1", summary: "Faster trees."),
        ]
        #expect(
            try await render(Blog(posts: posts), as: .plain) == """
                Release 1.0
                Streaming is here.

                Release 1.1
                Faster trees.

                - one
                - two &
                  - nested
                """)
    }

    /// README and the Streaming article: the stream written chunk by chunk.
    @Test func theStreamingExampleWritesEveryChunk() async throws {
        let response = Response()
        let stream = try await renderStream(Page())  // returns once the shell is ready
        for try await chunk in stream {  // `String`s of HTML, in order
            try await response.write(chunk)
        }
        let chunks = await response.chunks
        #expect(!chunks.isEmpty)
        #expect(chunks.joined().contains("Hi, my name is Bob."))
    }

    /// The Streaming article's options: the render's own, and the stream's.
    @Test func theStreamingOptionsExampleStreamsInOrder() async throws {
        // The README's deadline is 2 s; a loaded sanitizer run once took longer for two 50 ms
        // queries, so the test gives the same call a deadline it cannot reach.
        let stream = try await renderStream(
            Page(), options: RenderOptions(deadline: .seconds(60)), stream: StreamOptions(order: .inOrder))
        let page = try await stream.collect()
        #expect(page.contains("Hi, my name is Bob."))
        #expect(!page.contains("<script"))
    }

    /// The Streaming article's live frames and live terminal.
    @Test func theLiveFramesExampleRuns() async throws {
        for try await frame in liveFrames(Page()) {  // while the render runs
            print(try frame.rendered(as: .plain), frame.pendingQueries)
        }
        try await LiveTerminal(format: .plain).render(Page())  // redrawn in place on a terminal
    }

    /// The Queries article's several keys at once: both queries run, the component shows both.
    @Test func theSeveralKeysExampleReadsBothValues() async throws {
        let cache = QueryCache()
        #expect(try await render(Suspense { try UserWithPosts(id: 1) }, as: .plain, cache: cache) == "Ann: Post 1")
        #expect(cache.statistics.misses == 2)
    }

    /// The Queries article's shared cache: the second render reads what the first stored.
    @Test func theSharedCacheExampleRendersTheSamePageTwice() async throws {
        let cache = QueryCache()
        let first = try await render(Page(), cache: cache)
        let second = try await render(Page(), cache: cache)  // reads what the first stored
        #expect(first == second)
        #expect(cache.value(for: "user/1", as: User.self)?.name == "Ann")
    }

    /// The Queries article's cache lifetime example.
    @Test func theCacheLifetimeExampleForgetsWhatItIsTold() async throws {
        let cache = QueryCache(
            failures: .dropAfterRender,  // a failure is forgotten when the render that met it ends
            lifetime: .seconds(60)  // a value or failure is used for 60 s, then asked for again
        )
        cache.store(User(name: "Ann"), for: "user/1")
        cache.store(User(name: "Bob"), for: "user/2")
        cache.removeValue(for: "user/1")  // forget one key: its value, failure or stub
        #expect(!cache.contains("user/1") && cache.contains("user/2"))
        cache.removeAll()  // forget every result and every stub
        #expect(!cache.contains("user/2"))
        #expect(try await render(Page(), as: .plain, cache: cache) == "Hi, my name is Ann.\nHi, my name is Bob.")
    }

    /// The Queries article's retry example: two failures, 100 ms then 200 ms apart, then the value.
    @Test func theRetryExampleTriesThreeTimesOnTheRendersClock() async throws {
        let clock = TestClock()
        async let page = render(FlakyFeed(), as: .plain, options: RenderOptions(clock: clock))
        await clock.waitForSleeper(dueAt: .milliseconds(100))
        clock.advance(by: .milliseconds(100))
        await clock.waitForSleeper(dueAt: .milliseconds(300))
        clock.advance(by: .milliseconds(200))
        #expect(try await page == "River bursts its banks")
        #expect(api.calls.all.count == 3)
    }

    /// The Errors article's presentable error, as the default fallback, `.tree` and `RenderError` show it.
    @Test func thePresentableErrorShowsAsTheArticleSays() async throws {
        struct Feed: Component {
            init() throws { throw Offline() }
            var body: some Component { Text("never") }
        }
        struct Page: Component {
            var body: some Component { try Feed() }
        }
        struct Guarded: Component {
            var body: some Component { ErrorBoundary { try Feed() } }
        }
        #expect(
            try await render(Guarded(), as: .plain)
                == "Offline: The feed cannot be reached. Check your connection and try again.")
        #expect(
            try await render(Guarded(), as: .tree) == """
                Guarded
                └─ ErrorBoundary #0 [caught: Offline: The feed cannot be reached.]
                   └─ "Offline: The feed cannot be reached. Check your connection and try again."
                """)
        let error = try await #require(throws: RenderError.self) { try await render(Page()) }
        #expect(
            error.description
                == "uncaught error in Page > Feed: Offline: The feed cannot be reached. Check your connection and try again."
        )
    }

    /// The Errors article's typed boundaries: the inner one catches the network error.
    @Test func theTypedBoundaryExampleCatchesTheNetworkError() async throws {
        struct Feed: Component {
            init() throws {
                let _: String = try resolveValue(key: "feed") { throw NetworkError(code: 503) }
            }
            var body: some Component { Text("never") }
        }
        struct Page: Component {
            var body: some Component {
                ErrorBoundary {
                    ErrorBoundary(catching: NetworkError.self) {
                        Suspense {
                            try Feed()
                        } fallback: {
                            Text("Loading…")
                        }
                    } fallback: { (error: NetworkError) in
                        Text("Offline (\(error.code)). Try again later.")
                    }
                } fallback: { error in
                    Text("Something else went wrong: \(error)")  // a decoding error, say
                }
                ErrorBoundary(catching: NetworkError.self) { try Feed() }  // the default fallback
            }
        }
        #expect(try await render(Page(), as: .plain) == "Offline (503). Try again later.network error 503")
    }

    /// The Errors article's `onError`, and the line it says it logs.
    @Test func theOnErrorExampleLogsTheFailureOnce() async throws {
        let logger = ReadmeLogger()
        struct Feed: Component {
            init() throws {
                let _: String = try resolveValue(key: "feed") {
                    await Task.yield()
                    throw Offline()
                }
            }
            var body: some Component { Text("never") }
        }
        struct Page: Component {
            let logger: ReadmeLogger
            var body: some Component {
                ErrorBoundary {
                    Suspense {
                        try Feed()
                    } fallback: {
                        Text("Loading…")
                    }
                }
                .onError { failure in logger.warning("\(failure)") }
            }
        }
        _ = try await render(Page(logger: logger))
        #expect(
            logger.entries.all == [
                "warning: ErrorBoundary #0 caught in Page > ErrorBoundary > Suspense > Feed: Offline: The feed cannot be reached."
            ])
    }

    #if compiler(>=6.2)
        /// The Components article's main-actor example.
        @MainActor @Test func theMainActorExampleRendersTheSessionsName() async throws {
            #expect(try await page(Session()) == "<h1>Hello Ann</h1>")
        }
    #endif

    /// The SnapshotTesting article's inline assertion.
    @Test func theInlineAssertionExamplePasses() async {
        struct Greeting: Component {
            var body: some Component { Text("Hello, Ann") }
        }
        await assertRender(of: Greeting(), as: .plain, matches: "Hello, Ann")
    }
}
