// Writes generated trees for the browser-equivalence test (scripts/browser-equivalence.sh): per
// tree, the whole render (`render(_, as: .html)`) and its streams (out of order with a script
// swap, in order, and out of order with the declarative swap), each as the list of chunks the
// stream produced, for a server to send one by one. Queries really wait (a few ms, seeded), so
// that boundaries resolve in varied orders.
//
//     swift run BrowserEquivalence --seed S --count N --out DIR [--only K]
//     swift run BrowserEquivalence --seed S --print K
//
// DIR gets manifest.json and, per tree K, K/whole.html, K/<mode>.json ({"chunks": […],
// "error": …}) and K/tree.txt. Tree K depends only on S and K: `--only K` writes that tree alone.
import Foundation
import SuspenseKit

let skipped: [String: String] = [:]

struct Arguments {
    var seed: UInt64 = 1
    var count = 200
    var out = ".build/browser-equivalence"
    var only: Int?
    var print: Int?

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        func value(_ name: String) -> String {
            guard let value = rest.popFirst() else { fail("\(name) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--seed": seed = UInt64(value(argument)) ?? { fail("--seed takes a number") }()
            case "--count": count = Int(value(argument)) ?? { fail("--count takes a number") }()
            case "--out": out = value(argument)
            case "--only": only = Int(value(argument)) ?? { fail("--only takes a number") }()
            case "--print": print = Int(value(argument)) ?? { fail("--print takes a number") }()
            default: fail("unknown argument \(argument)")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("BrowserEquivalence: \(message)\n".utf8))
    exit(2)
}

enum Mode: String, CaseIterable {
    case script, inOrder = "in-order", declarative

    func options(nonce: String) -> StreamOptions? {
        switch self {
        case .script: return StreamOptions(order: .outOfOrder, nonce: nonce)
        case .inOrder: return StreamOptions(order: .inOrder, nonce: nonce)
        case .declarative:
            // No nonce: the declarative swap needs no script, and a script it wrote would be
            // blocked by the page's policy, which fails the page.
            return StreamOptions(swap: .declarative)
        }
    }
}

struct TreeOutput: Sendable {
    let index: Int
    let seed: UInt64
    let features: [String]
    /// Its Suspense and ErrorBoundary components.
    let boundaries: Int
    let description: String
    let whole: Result<String, any Error>
    /// Per mode: the chunks, and the error that ended the stream, if any.
    let streams: [String: (chunks: [String], error: String?)]
}

/// Tree `seed`, its ids that look like markers named after the boundaries its out-of-order
/// stream writes (found by streaming it once), so that a lookup by id can take the wrong element.
func makeTree(_ seed: UInt64) async -> (nodes: [Node], features: [String]) {
    var generator = TreeGenerator(seed: seed)
    let nodes = generator.makeTree()
    let features = generator.features.union(Node.features(of: nodes)).sorted()
    guard features.contains("marker-like-id") else { return (nodes, features) }
    let page = await stream(nodes, StreamOptions()).chunks.joined()
    var names: Set<String> = []
    for pattern in [#"<!--/?(sk:[0-9.]+)-->"#, #"name="([^"]+)""#, #"for="([^"]+)""#] {
        let regex = try! NSRegularExpression(pattern: pattern)
        for match in regex.matches(in: page, range: NSRange(page.startIndex..., in: page)) {
            let name = String(page[Range(match.range(at: 1), in: page)!])
            names.insert(name)
            // The bare name too, as a declarative region or an application might spell it.
            if name.hasPrefix("sk:") { names.insert(String(name.dropFirst(3))) }
        }
    }
    return (TreeGenerator.withMarkerLikeIDs(nodes, names: names.sorted(), seed: seed), features)
}

func stream(_ nodes: [Node], _ options: StreamOptions) async -> (chunks: [String], error: String?) {
    var chunks: [String] = []
    do {
        for try await chunk in try await renderStream(Nodes(nodes: nodes), stream: options) {
            chunks.append(chunk)
        }
        return (chunks, nil)
    } catch {
        return (chunks, String(describing: error))
    }
}

func run(index: Int, runSeed: UInt64, nonce: String, modes: [Mode]) async -> TreeOutput {
    let seed = TreeGenerator.treeSeed(runSeed, index)
    let (nodes, features) = await makeTree(seed)
    async let whole = Result { try await render(Nodes(nodes: nodes), as: .html) }
    var streams: [String: (chunks: [String], error: String?)] = [:]
    await withTaskGroup(of: (String, (chunks: [String], error: String?)).self) { group in
        for mode in modes {
            group.addTask { (mode.rawValue, await stream(nodes, mode.options(nonce: nonce)!)) }
        }
        for await (mode, result) in group { streams[mode] = result }
    }
    return TreeOutput(
        index: index, seed: seed, features: features, boundaries: nodes.map(\.boundaries).reduce(0, +),
        description: nodes.map { $0.describe() }.joined(), whole: await whole, streams: streams)
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

func write(_ text: String, to path: String) {
    do {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    } catch {
        fail("cannot write \(path): \(error)")
    }
}

func json(_ object: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
        fail("cannot encode JSON")
    }
    return String(decoding: data, as: UTF8.self)
}

let arguments = Arguments(CommandLine.arguments)
if let index = arguments.print {
    let (nodes, features) = await makeTree(TreeGenerator.treeSeed(arguments.seed, index))
    print("tree \(index) of seed \(arguments.seed) (\(features.joined(separator: ", "))):")
    print(nodes.map { $0.describe() }.joined(), terminator: "")
    exit(0)
}

let modes = Mode.allCases.filter { $0.options(nonce: "") != nil }
for (mode, reason) in skipped.sorted(by: { $0.key < $1.key }) {
    print("BrowserEquivalence: \(mode) skipped: \(reason)")
}
let nonce = "n\(String(arguments.seed, radix: 16))x\(arguments.count)"
let indices = arguments.only.map { [$0] } ?? Array(0..<arguments.count)
let outputs = await withTaskGroup(of: TreeOutput.self) { group in
    var pending = indices[...]
    var results: [TreeOutput] = []
    // A few dozen trees at once: their queries' waits overlap.
    for _ in 0..<32 {
        guard let index = pending.popFirst() else { break }
        group.addTask { await run(index: index, runSeed: arguments.seed, nonce: nonce, modes: modes) }
    }
    for await output in group {
        results.append(output)
        if let index = pending.popFirst() {
            group.addTask { await run(index: index, runSeed: arguments.seed, nonce: nonce, modes: modes) }
        }
    }
    return results.sorted { $0.index < $1.index }
}

try? FileManager.default.createDirectory(atPath: arguments.out, withIntermediateDirectories: true)
var trees: [[String: Any]] = []
for output in outputs {
    let directory = "\(arguments.out)/\(output.index)"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    write(output.description, to: "\(directory)/tree.txt")
    var entry: [String: Any] = [
        "index": output.index, "seed": String(output.seed), "features": output.features,
        "boundaries": output.boundaries,
    ]
    switch output.whole {
    case .success(let html):
        write(html, to: "\(directory)/whole.html")
    case .failure(let error):
        // A generator defect: every failing query has an ErrorBoundary above it.
        entry["wholeError"] = String(describing: error)
    }
    var streamErrors: [String: String] = [:]
    for (mode, result) in output.streams {
        write(json(["chunks": result.chunks, "error": result.error as Any]), to: "\(directory)/\(mode).json")
        if let error = result.error { streamErrors[mode] = error }
    }
    entry["streamErrors"] = streamErrors
    trees.append(entry)
}
let manifest: [String: Any] = [
    "seed": String(arguments.seed), "count": arguments.count, "nonce": nonce,
    "modes": modes.map(\.rawValue),
    "skipped": skipped,
    "trees": trees,
]
write(json(manifest), to: "\(arguments.out)/manifest.json")
print(
    "BrowserEquivalence: \(outputs.count) trees, modes \(modes.map(\.rawValue).joined(separator: ", ")) in \(arguments.out)"
)
