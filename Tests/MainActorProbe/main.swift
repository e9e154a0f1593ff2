// Renders from top-level code, as a command-line tool does: the process's first main-actor job
// runs on the main thread, later ones may run elsewhere. Swift Testing never runs a test there,
// so `.ci/run` runs this program. A Suspense's timeout fires after an `await`, and the fallback
// it shows is a chain 20,000 levels deep; then a chain 100,000 levels deep renders on the main
// actor. Exits non-zero, saying what went wrong, unless both render in full.
import Foundation
import SuspenseKit

/// `levels` nested components, each in an element.
struct Chain: Component {
    let levels: Int
    var body: some Component {
        Element("div") {
            if levels > 1 {
                Chain(levels: levels - 1)
            } else {
                Text("bottom")
            }
        }
    }
}

/// A value that takes an hour: its Suspense times out first.
struct Slow: Component {
    init() throws {
        _ = try resolveValue(key: "slow") {
            try await Task.sleep(for: .seconds(3600))
            return "late"
        }
    }
    var body: some Component { Text("loaded") }
}

struct Page: Component {
    var body: some Component {
        ErrorBoundary {
            Suspense(timeout: .milliseconds(100)) {
                try Slow()
            } fallback: {
                Text("Loading…")
            }
        } fallback: { _ in
            Chain(levels: 20_000)
        }
    }
}

/// Writes a line at once: a buffered line would be lost if the process then crashed.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

var failed = false
@MainActor func check(_ what: String, _ output: () async throws -> String) async {
    do {
        let result = try await output()
        if result == "bottom" {
            say("\(what): ok")
        } else {
            say("\(what): unexpected output \(result.prefix(200))")
            failed = true
        }
    } catch {
        say("\(what): failed: \(error)")
        failed = true
    }
}

await check("a timeout's 20,000-level fallback, first render on the main actor") {
    try await render(Page(), as: .plain)
}
await check("100,000 levels on the main actor") {
    try await render(Chain(levels: 100_000), as: .plain, options: RenderOptions(maxDepth: 200_001))
}
if failed { exit(1) }
