import SuspenseKit
import SuspenseTesting
import Testing

// The README's hero example, compiled and run as written there.
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

// The README's environment example, as written there.
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

// What the README's snippets log into: `logger` for the error callbacks, `log` for the deadline.
private struct ReadmeLogger: Sendable {
    let entries = Log()
    func warning(_ message: String) { entries.append("warning: \(message)") }
    func error(_ message: String) { entries.append("error: \(message)") }
}

private let logger = ReadmeLogger()
private let log = ReadmeLogger()

/// The README's timeout example: a card whose query outlasts its Suspense's timeout.
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

@Suite struct ReadmeTests {
    @Test func theEnvironmentExampleGreetsInEachPlacesLocale() async throws {
        let cache = QueryCache()
        #expect(try await render(Greetings(), as: .plain, cache: cache) == "Hello Ann\nBonjour Bob")
        #expect(cache.value(for: "name/2/fr", as: String.self) == "Bob")
    }

    /// The README's `render` with every argument, then `resolve` and `Node.rendered(as:)`. The
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

    /// The README's error callbacks, as written there (the hooks set with methods).
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

    /// The README's deadline example, as written there: a page done in time never calls the hook.
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

    /// The README's timeout example, run on a test clock as the README's next snippet shows.
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
}
