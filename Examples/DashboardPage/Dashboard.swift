// A dashboard of independent cards, each loading behind its own Suspense with its own latency, so
// that a stream shows them arriving out of order: one card's query fails and its own
// ErrorBoundary shows a fallback, one card nests a second Suspense, one list is empty.
//
// Used by the `Dashboard` executable (Examples/Dashboard) and by `DashboardServer`
// (Integrations/Hummingbird).
public import SuspenseKit

public struct Metric: Sendable {
    public let label: String
    public let value: Int
}

public struct ServiceUnavailable: Error, CustomStringConvertible {
    public let service: String
    public var description: String { "\(service) is unavailable" }
}

/// How long each simulated backend call takes, in milliseconds. The default makes the cards
/// arrive in an order unlike the page's: Visitors, Release notes, Tasks, Alerts (failing),
/// comments, Signups.
public struct Latencies: Sendable {
    public var visitors = 60
    public var signups = 450
    public var alerts = 250
    public var tasks = 150
    public var post = 100
    public var comments = 300
    /// The clock every simulated call sleeps on: a test clock lets a check decide when each
    /// answers (`DashboardServer --test-clock`).
    public var clock: any Clock<Duration> = ContinuousClock()

    public init() {}

    /// Every latency multiplied by `factor` (0 makes every query answer at once).
    public func scaled(by factor: Double) -> Latencies {
        func scale(_ value: Int) -> Int { Int((Double(value) * factor).rounded()) }
        var scaled = self
        scaled.visitors = scale(visitors)
        scaled.signups = scale(signups)
        scaled.alerts = scale(alerts)
        scaled.tasks = scale(tasks)
        scaled.post = scale(post)
        scaled.comments = scale(comments)
        return scaled
    }
}

/// Simulated backend: each call answers after its own latency, on the latencies' clock.
enum Backend {
    static func wait(_ milliseconds: Int, on clock: any Clock<Duration>) async throws {
        if milliseconds > 0 { try await clock.sleep(for: .milliseconds(milliseconds)) }
    }

    static func metric(
        _ name: String, value: Int, after milliseconds: Int, on clock: any Clock<Duration>
    ) async throws -> Metric {
        try await wait(milliseconds, on: clock)
        return Metric(label: name, value: value)
    }

    static func alerts(after milliseconds: Int, on clock: any Clock<Duration>) async throws -> [String] {
        try await wait(milliseconds, on: clock)
        throw ServiceUnavailable(service: "the alerting service")
    }

    static func tasks(after milliseconds: Int, on clock: any Clock<Duration>) async throws -> [String] {
        try await wait(milliseconds, on: clock)
        return []
    }

    static func comments(
        on post: String, after milliseconds: Int, clock: any Clock<Duration>
    ) async throws -> [String] {
        try await wait(milliseconds, on: clock)
        return ["Looks good to me.", "Ship it & see <what> happens!"]
    }
}

/// A placeholder card, shown while a card loads.
struct LoadingCard: Component {
    let title: String
    var body: some Component {
        Element("section", attributes: ["class": "card loading"]) {
            Element("h2") { Text(title) }
            Element("p") { Text("Loading…") }
        }
    }
}

struct MetricCard: Component {
    let metric: Metric

    init(_ name: String, value: Int, latency: Int, clock: any Clock<Duration>) throws {
        metric = try resolveValue(key: "metric/\(name)") {
            try await Backend.metric(name, value: value, after: latency, on: clock)
        }
    }

    var body: some Component {
        Element("section", attributes: ["class": "card"]) {
            Element("h2") { Text(metric.label) }
            Element("p") { Text("\(metric.value)") }
        }
    }
}

struct AlertsCard: Component {
    let alerts: [String]

    init(latency: Int, clock: any Clock<Duration>) throws {
        alerts = try resolveValue(key: "alerts") { try await Backend.alerts(after: latency, on: clock) }
    }

    var body: some Component {
        Element("section", attributes: ["class": "card"]) {
            Element("h2") { Text("Alerts") }
            Element("ul") {
                ForEach(alerts) { alert in Element("li") { Text(alert) } }
            }
        }
    }
}

public struct TasksCard: Component {
    let tasks: [String]

    public init(latency: Int = 0, clock: any Clock<Duration> = ContinuousClock()) throws {
        tasks = try resolveValue(key: "tasks") { try await Backend.tasks(after: latency, on: clock) }
    }

    public var body: some Component {
        Element("section", attributes: ["class": "card"]) {
            Element("h2") { Text("Tasks") }
            Element("ul") {
                ForEach(tasks) { task in
                    Element("li") { Text(task) }
                } empty: {
                    Element("li", attributes: ["class": "empty"]) { Text("No open tasks.") }
                }
            }
        }
    }
}

struct Comments: Component {
    let comments: [String]

    init(post: String, latency: Int, clock: any Clock<Duration>) throws {
        comments = try resolveValue(key: "comments/\(post)") {
            try await Backend.comments(on: post, after: latency, clock: clock)
        }
    }

    var body: some Component {
        Element("ul") {
            ForEach(comments) { comment in Element("li") { Text(comment) } }
        }
    }
}

struct PostCard: Component {
    let post: Metric
    let latencies: Latencies

    init(latencies: Latencies) throws {
        self.latencies = latencies
        post = try resolveValue(key: "post/latest") {
            try await Backend.metric("Release notes", value: 3, after: latencies.post, on: latencies.clock)
        }
    }

    var body: some Component {
        Element("section", attributes: ["class": "card"]) {
            Element("h2") { Text(post.label) }
            Suspense {
                try Comments(post: post.label, latency: latencies.comments, clock: latencies.clock)
            } fallback: {
                Element("p") { Text("Loading comments…") }
            }
        }
    }
}

/// The dashboard: a heading and five cards, each behind its own boundary. With a `reveal` order,
/// the cards are the rows of a ``SuspenseList``: they still load at once, but show in that order
/// (with `.forwards`, top to bottom), each card's placeholder shown only when it is next.
public struct Dashboard: Component {
    let latencies: Latencies
    let reveal: RevealOrder?

    public init(latencies: Latencies = Latencies(), reveal: RevealOrder? = nil) {
        self.latencies = latencies
        self.reveal = reveal
    }

    public var body: some Component {
        Element("main") {
            Element("h1") { Text("Dashboard") }
            Element("div", attributes: ["class": "cards"]) {
                if let reveal {
                    SuspenseList(revealOrder: reveal, tail: .collapsed) {
                        visitors
                        signups
                        alerts
                        tasks
                        post
                    }
                } else {
                    visitors
                    signups
                    alerts
                    tasks
                    post
                }
            }
        }
    }

    var visitors: some Component {
        Suspense {
            try MetricCard("Visitors", value: 1204, latency: latencies.visitors, clock: latencies.clock)
        } fallback: {
            LoadingCard(title: "Visitors")
        }
    }

    var signups: some Component {
        Suspense {
            try MetricCard("Signups", value: 37, latency: latencies.signups, clock: latencies.clock)
        } fallback: {
            LoadingCard(title: "Signups")
        }
    }

    var alerts: some Component {
        ErrorBoundary {
            Suspense {
                try AlertsCard(latency: latencies.alerts, clock: latencies.clock)
            } fallback: {
                LoadingCard(title: "Alerts")
            }
        } fallback: { error in
            Element("section", attributes: ["class": "card error"]) {
                Element("h2") { Text("Alerts") }
                Element("p") { Text("Could not load alerts: \(error)") }
            }
        }
    }

    var tasks: some Component {
        Suspense {
            try TasksCard(latency: latencies.tasks, clock: latencies.clock)
        } fallback: {
            LoadingCard(title: "Tasks")
        }
    }

    var post: some Component {
        Suspense {
            try PostCard(latencies: latencies)
        } fallback: {
            LoadingCard(title: "Release notes")
        }
    }
}

/// The dashboard as a whole HTML document, with a little style: what a server sends.
public struct DashboardDocument: Component {
    let latencies: Latencies
    let reveal: RevealOrder?

    public init(latencies: Latencies = Latencies(), reveal: RevealOrder? = nil) {
        self.latencies = latencies
        self.reveal = reveal
    }

    static let style = """
        body{font-family:sans-serif;margin:2rem;background:#f4f5f7;color:#222}\
        .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:1rem}\
        .card{background:#fff;border-radius:8px;padding:1rem;box-shadow:0 1px 3px #0002}\
        .card h2{margin:0 0 .5rem;font-size:1.1rem}.card p{font-size:1.6rem;margin:0}\
        .card ul{padding-left:1.2rem;margin:0}.loading{color:#999}.error{border-left:4px solid #c33}.error p{font-size:1rem}
        """

    public var body: some Component {
        Document(lang: "en") {
            Element("meta", attributes: ["charset": "utf-8"])
            Element("title") { Text("Dashboard") }
            Element("style") { RawHTML(Self.style) }
        } body: {
            Dashboard(latencies: latencies, reveal: reveal)
        }
    }
}
