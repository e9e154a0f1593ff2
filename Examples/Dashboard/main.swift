// A dashboard of independent cards, each loading on its own: one card's query fails and its own
// ErrorBoundary shows a fallback, one card nests a second Suspense, one list is empty.
//
//     swift run Dashboard            # HTML
//     swift run Dashboard --tree     # the resolved structure
//     swift run Dashboard --plain    # the visible text
import SuspenseKit

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

struct Metric: Sendable {
    let label: String
    let value: Int
}

struct ServiceUnavailable: Error, CustomStringConvertible {
    let service: String
    var description: String { "\(service) is unavailable" }
}

/// Simulated backend: each call answers after its own latency.
enum Backend {
    static func metric(_ name: String, value: Int, after milliseconds: Int) async throws -> Metric {
        try await Task.sleep(for: .milliseconds(milliseconds))
        return Metric(label: name, value: value)
    }

    static func alerts() async throws -> [String] {
        try await Task.sleep(for: .milliseconds(80))
        throw ServiceUnavailable(service: "the alerting service")
    }

    static func tasks() async throws -> [String] {
        try await Task.sleep(for: .milliseconds(40))
        return []
    }

    static func comments(on post: String) async throws -> [String] {
        try await Task.sleep(for: .milliseconds(60))
        return ["Looks good to me.", "Ship it & see <what> happens!"]
    }
}

struct MetricCard: Component {
    let metric: Metric

    init(_ name: String, value: Int, latency: Int) throws {
        metric = try resolveValue(key: "metric/\(name)") {
            try await Backend.metric(name, value: value, after: latency)
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

    init() throws {
        alerts = try resolveValue(key: "alerts") { try await Backend.alerts() }
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

struct TasksCard: Component {
    let tasks: [String]

    init() throws {
        tasks = try resolveValue(key: "tasks") { try await Backend.tasks() }
    }

    var body: some Component {
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

    init(post: String) throws {
        comments = try resolveValue(key: "comments/\(post)") { try await Backend.comments(on: post) }
    }

    var body: some Component {
        Element("ul") {
            ForEach(comments) { comment in Element("li") { Text(comment) } }
        }
    }
}

struct PostCard: Component {
    let post: Metric

    init() throws {
        post = try resolveValue(key: "post/latest") {
            try await Backend.metric("Release notes", value: 3, after: 30)
        }
    }

    var body: some Component {
        Element("section", attributes: ["class": "card"]) {
            Element("h2") { Text(post.label) }
            Suspense {
                try Comments(post: post.label)
            } fallback: {
                Element("p") { Text("Loading comments…") }
            }
        }
    }
}

struct Dashboard: Component {
    var body: some Component {
        Element("main") {
            Element("h1") { Text("Dashboard") }
            Suspense {
                try MetricCard("Visitors", value: 1204, latency: 50)
                try MetricCard("Signups", value: 37, latency: 120)
                ErrorBoundary {
                    try AlertsCard()
                } fallback: { error in
                    Element("section", attributes: ["class": "card error"]) {
                        Element("h2") { Text("Alerts") }
                        Element("p") { Text("Could not load alerts: \(error)") }
                    }
                }
                try TasksCard()
                try PostCard()
            } fallback: {
                Element("p") { Text("Loading dashboard…") }
            }
        }
    }
}

let arguments = CommandLine.arguments.dropFirst()
let format: RenderFormat
switch arguments.first {
case nil, "--html": format = .html(pretty: true)
case "--tree": format = .tree
case "--plain": format = .plain
case let other?:
    print("usage: Dashboard [--html | --tree | --plain]  (unknown option \(other))")
    exit(2)
}
do {
    print(try await render(Dashboard(), as: format))
} catch {
    print("error: \(error)")
}
