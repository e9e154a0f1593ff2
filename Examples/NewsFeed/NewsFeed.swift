import SuspenseKit
// A news feed with every state a page that loads can be in: loading, loaded, empty and failed; a
// flaky source tried again with backoff, a slow section cut off by a timeout, a locale from the
// environment, and errors that present themselves.
import Synchronization

struct Article: Sendable, Hashable {
    let title: String
    let summary: String
}

/// What the feed's backends fail with: each error says how to present itself, and whether
/// trying again may help.
enum FeedError: PresentableError, RetryableError, Hashable {
    case offline
    case sectionRetired(String)

    var title: String {
        switch self {
        case .offline: "Offline"
        case .sectionRetired: "Section retired"
        }
    }

    var message: String {
        switch self {
        case .offline: "The news service cannot be reached."
        case .sectionRetired(let name): "The \(name) section is no longer published."
        }
    }

    var recoverySuggestion: String? {
        switch self {
        case .offline: "Check your connection and try again."
        case .sectionRetired: nil
        }
    }

    var isTransient: Bool { self == .offline }
}

// MARK: Environment

private struct LocaleKey: EnvironmentKey {
    static let defaultValue = "en"
}

extension EnvironmentValues {
    /// The reader's language: "en" or "fr".
    var locale: String {
        get { self[LocaleKey.self] }
        set { self[LocaleKey.self] = newValue }
    }
}

/// The few strings the page shows, in its two languages.
func localized(_ english: String, locale: String) -> String {
    guard locale == "fr" else { return english }
    let french: [String: String] = [
        "Today's news": "Les nouvelles du jour",
        "Headlines": "À la une",
        "Sports": "Sports",
        "Saved for later": "À lire plus tard",
        "Opinion": "Opinion",
        "Loading…": "Chargement…",
        "Nothing saved yet.": "Rien d'enregistré pour l'instant.",
        "Scores are late today; check back soon.": "Les résultats sont en retard ; revenez bientôt.",
    ]
    return french[english] ?? english
}

// MARK: Backends

/// The simulated backends, with their latencies; the headlines fail their first call.
final class NewsService: Sendable {
    let latency: Duration
    private let headlineCalls = Atomic<Int>(0)

    init(latency: Duration = .milliseconds(120)) {
        self.latency = latency
    }

    func headlines(locale: String) async throws -> [Article] {
        try await Task.sleep(for: latency)
        if headlineCalls.add(1, ordering: .relaxed).newValue == 1 { throw FeedError.offline }
        return locale == "fr"
            ? [Article(title: "Le fleuve déborde", summary: "Les quais sont fermés jusqu'à jeudi.")]
            : [
                Article(title: "River bursts its banks", summary: "The quays are closed until Thursday."),
                Article(title: "Library opens at night", summary: "Late readers welcome from Monday."),
            ]
    }

    func sports() async throws -> [Article] {
        try await Task.sleep(for: latency * 30)  // far slower than the section's timeout
        return [Article(title: "Home side wins", summary: "3–1 after extra time.")]
    }

    func saved() async throws -> [Article] {
        try await Task.sleep(for: latency / 2)
        return []
    }

    func opinion() async throws -> [Article] {
        try await Task.sleep(for: latency)
        throw FeedError.sectionRetired("Opinion")
    }
}

// MARK: Components

struct ArticleList: Component {
    let articles: [Article]
    let empty: String

    var body: some Component {
        Element("ul") {
            ForEach(articles) { article in
                Element("li") {
                    Element("strong") { Text(article.title) }
                    Text(" — \(article.summary)")
                }
            } empty: {
                Element("li") { Text(empty) }
            }
        }
    }
}

struct Headlines: Component {
    let articles: [Article]

    init(service: NewsService) throws {
        @Environment(\.locale) var locale
        articles = try resolveValue(key: "headlines/\(locale)") { [locale] in
            try await service.headlines(locale: locale)
        }
    }

    var body: some Component { ArticleList(articles: articles, empty: "") }
}

struct SportsResults: Component {
    let articles: [Article]

    init(service: NewsService) throws {
        articles = try resolveValue(key: "sports") { try await service.sports() }
    }

    var body: some Component { ArticleList(articles: articles, empty: "") }
}

struct SavedArticles: Component {
    @Environment(\.locale) var locale
    let articles: [Article]

    init(service: NewsService) throws {
        articles = try resolveValue(key: "saved") { try await service.saved() }
    }

    var body: some Component {
        ArticleList(articles: articles, empty: localized("Nothing saved yet.", locale: locale))
    }
}

struct OpinionColumn: Component {
    let articles: [Article]

    init(service: NewsService) throws {
        articles = try resolveValue(key: "opinion") { try await service.opinion() }
    }

    var body: some Component { ArticleList(articles: articles, empty: "") }
}

/// One section: a heading, then its content behind its own boundaries.
struct Section<Content: Component>: Component {
    @Environment(\.locale) var locale
    let title: String
    let content: Content

    init(_ title: String, @ComponentBuilder content: () -> Content) {
        self.title = title
        self.content = content()
    }

    var body: some Component {
        Element("section") {
            Element("h2") { Text(localized(title, locale: locale)) }
            content
        }
    }
}

/// The feed. Headlines are tried three times, 200 ms then 400 ms apart, before their error
/// shows; sports gives up after one second; saved articles may be empty; opinion fails for good.
struct NewsFeed: Component {
    @Environment(\.locale) var locale
    let service: NewsService

    init(service: NewsService = NewsService()) {
        self.service = service
    }

    var body: some Component {
        Element("main") {
            Element("h1") { Text(localized("Today's news", locale: locale)) }
            Section("Headlines") {
                Suspense {
                    ErrorBoundary(retry: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(200))) {
                        try Headlines(service: service)
                    }
                } fallback: {
                    LoadingText()
                }
            }
            Section("Sports") {
                ErrorBoundary(catching: TimeoutError.self) {
                    Suspense(timeout: .seconds(1)) {
                        try SportsResults(service: service)
                    } fallback: {
                        LoadingText()
                    }
                } fallback: { _ in
                    LateText()
                }
            }
            Section("Saved for later") {
                Suspense {
                    try SavedArticles(service: service)
                } fallback: {
                    LoadingText()
                }
            }
            Section("Opinion") {
                ErrorBoundary {
                    Suspense {
                        try OpinionColumn(service: service)
                    } fallback: {
                        LoadingText()
                    }
                }
            }
        }
    }
}

struct LoadingText: Component {
    @Environment(\.locale) var locale
    var body: some Component { Element("p") { Text(localized("Loading…", locale: locale)) } }
}

struct LateText: Component {
    @Environment(\.locale) var locale
    var body: some Component {
        Element("p") { Text(localized("Scores are late today; check back soon.", locale: locale)) }
    }
}

/// The feed in the reader's language.
struct LocalizedNewsFeed: Component {
    let locale: String
    let service: NewsService

    var body: some Component {
        Group { NewsFeed(service: service) }.environment(\.locale, locale)
    }
}
