@testable import SuspenseKit

/// Runs generated cases against the reference model, shrinks failures and prints them.
enum ReliabilityPropertyRunner {
    typealias Harness = ReliabilityHarness
    typealias Model = ReliabilityModel

    /// How long a render (or a group of renders) may take before the check calls it a hang.
    /// Generated cases take milliseconds; the bound is wide because under the thread sanitizer
    /// on two cores the whole suite shares the pool, and a render there once waited over 20 s
    /// for a thread (a passing render never waits for the bound).
    static let timeout: Duration = .seconds(90)

    /// Runs one case once. Returns `nil` when the resolver agrees with the model and every query
    /// task ended, else what went wrong.
    static func check(_ testCase: Harness.Case, timeout: Duration = timeout) async -> String? {
        await check([testCase], timeout: timeout)
    }

    /// Renders the cases at once, sharing one cache and one ledger (one case: a render alone).
    /// Each must agree with the model; no query task may be left running once all have ended;
    /// no stored key may run; no render may start a key twice; together, the run whose result the
    /// cache holds is the key's last (a stored result is never run again; only a run every
    /// render left, cancelled before it stored anything, may be followed by another), and every
    /// result a component read is that one.
    static func check(_ cases: [Harness.Case], timeout: Duration = timeout) async -> String? {
        let ledger = ReliabilityQueryLedger()
        let cache = QueryCache(failures: .keep)
        let environments = cases.enumerated().map { Harness.Environment($1, ledger: ledger, render: $0) }
        for environment in environments { environment.store(into: cache) }
        let renders = Task {
            await withTaskGroup(of: (Int, Result<Node, any Error>).self) { group in
                for (index, environment) in environments.enumerated() {
                    group.addTask {
                        let testCase = environment.testCase
                        let page = Harness.Page(children: testCase.root, environment: environment)
                        var options = RenderOptions(deliveryOrder: testCase.deliveryOrder)
                        // A quarter of the cases each keep 1, 2 or 3 levels on the stack per
                        // pass: deferring nearly every subtree must not change the result.
                        options.levelsOnStack = [1, 2, 3, 48][Int(testCase.seed % 4)]
                        do {
                            return (index, .success(try await resolve(page, cache: cache, options: options)))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                var results: [Result<Node, any Error>?] = Array(repeating: nil, count: environments.count)
                for await (index, result) in group { results[index] = result }
                return results.map { $0! }
            }
        }
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            renders.cancel()
        }
        let results = await renders.value
        watchdog.cancel()
        let timedOut = (try? await watchdog.value) != nil
        var problems: [String] = []
        if timedOut {
            problems.append("the render did not end within \(timeout) (a hang?); it was cancelled")
        }
        if ledger.live != 0 {
            problems.append("\(ledger.live) query tasks still running after the render ended")
        }
        let answers = ledger.answers
        let runs = ledger.runs
        let startsByRender = ledger.startsByRender
        for key in ledger.starts.keys.sorted() {
            for (render, count) in (startsByRender[key] ?? [:]).sorted(by: { $0.key < $1.key }) where count > 1 {
                let which = cases.count == 1 ? "" : " (render \(render + 1) of \(cases.count))"
                problems.append("query \(key) ran \(count) times in one render\(which)")
            }
            if cases[0].outcomes[key]?.isStored == true {
                problems.append("query \(key) ran although the cache held it")
            }
            // A run's result is stored when it ends, unless every render left it (cancelled):
            // so the stored run is the key's last, and the only one any component read. Runs are
            // numbered as their closures begin, so a run left before its task began executing
            // (a detached task scheduled late) may carry a later number: it must be cancelled.
            let stored = storedRun(of: key, in: cache)
            let cancelledRuns = ledger.cancelled[key] ?? []
            let later = (runs[key] ?? []).drop { $0 != stored }.dropFirst()
            if let stored, !later.allSatisfy({ cancelledRuns.contains($0) }) {
                problems.append(
                    "query \(key) ran again after its result was stored (runs \(runs[key] ?? []), stored: \(stored))")
            }
            for read in answers[key] ?? [] where read > 0 && read != stored {
                let holds = stored.map { "run \($0)" } ?? "nothing"
                problems.append("a component read run \(read) of \(key), but the cache holds \(holds)")
            }
        }
        for (index, (testCase, actual)) in zip(cases, results).enumerated() {
            let render = cases.count == 1 ? "" : "render \(index + 1) of \(cases.count): "
            for problem in compare(actual, with: Model.outcome(of: testCase)) {
                problems.append(render + problem)
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "\n")
    }

    /// The ledger's number of the run whose result the cache holds for `key`, if any.
    private static func storedRun(of key: String, in cache: QueryCache) -> Int? {
        switch cache.entry(for: key) {
        case .value(let value)?: return (value as? Harness.Fetched)?.run
        case .failure(let error)?: return (error as? Harness.Failure)?.run
        case nil: return nil
        }
    }

    /// What differs between a render's result and the model's outcome.
    private static func compare(_ actual: Result<Node, any Error>, with expected: Model.Outcome) -> [String] {
        var problems: [String] = []
        switch (expected, actual) {
        case (.tree(let tree), .success(let node)):
            if !matches(node, tree) {
                problems.append("expected tree:\n\(describe(tree))\nactual tree:\n\(node.rendered(asTreeOr: "?"))")
            }
            for format in [RenderFormat.tree, .plain, .html, .html(pretty: true)] {
                do { _ = try node.rendered(as: format) } catch { problems.append("rendering failed: \(error)") }
            }
        case (.tree(let tree), .failure(let error)):
            problems.append("expected tree:\n\(describe(tree))\nactual: render threw \(error)")
        case (.renderError(let allowed), .success(let node)):
            problems.append(
                "expected a RenderError, one of:\n\(allowed.map { "  \($0)" }.joined(separator: "\n"))\nactual tree:\n\(node.rendered(asTreeOr: "?"))"
            )
        case (.renderError(let allowed), .failure(let error)):
            if let error = error as? RenderError {
                let thrown = Model.Thrown(path: error.path, message: "\(error.underlying)")
                if !allowed.contains(thrown) {
                    problems.append(
                        "expected a RenderError, one of:\n\(allowed.map { "  \($0)" }.joined(separator: "\n"))\nactual: \(thrown)"
                    )
                }
            } else {
                problems.append("expected a RenderError; actual: \(type(of: error)): \(error)")
            }
        }
        return problems
    }

    /// Runs a case a few times (outcomes may depend on timing); the first problem, if any.
    static func checkRepeatedly(_ testCase: Harness.Case, times: Int, timeout: Duration = timeout) async -> String? {
        await checkRepeatedly([testCase], times: times, timeout: timeout)
    }

    static func checkRepeatedly(_ cases: [Harness.Case], times: Int, timeout: Duration = timeout) async -> String? {
        for _ in 0..<times {
            if let problem = await check(cases, timeout: timeout) { return problem }
        }
        return nil
    }

    // MARK: Matching

    static func matches(_ actual: Node, _ expected: Model.Expected) -> Bool {
        switch expected {
        case .node(let kind, let children):
            return actual.kind == kind && matches(actual.children, children)
        case .caughtAny(let messages, let fallback):
            guard case .errorBoundary(.caught(let message)) = actual.kind, messages.contains(message) else {
                return false
            }
            return matches(actual.children, fallback(message))
        }
    }

    static func matches(_ actual: [Node], _ expected: [Model.Expected]) -> Bool {
        actual.count == expected.count && zip(actual, expected).allSatisfy { matches($0, $1) }
    }

    /// The expected tree in the `.tree` format; a boundary that may show several errors shows the
    /// fallback for the first.
    static func describe(_ expected: Model.Expected) -> String {
        func node(_ expected: Model.Expected) -> Node {
            switch expected {
            case .node(let kind, let children):
                return Node(kind, children: children.map(node))
            case .caughtAny(let messages, let fallback):
                return Node(
                    .errorBoundary(.caught("one of: " + messages.joined(separator: " | "))),
                    children: fallback(messages[0]).map(node))
            }
        }
        return node(expected).rendered(asTreeOr: "?")
    }

    // MARK: Shrinking

    /// Simplifies a failing case step by step while it still fails: removes nodes, replaces
    /// them with text, unwraps them into their children, drops keys, throws and latencies.
    static func shrink(_ failing: Harness.Case, attemptsPerCandidate: Int = 4, budget: Int = 3_000) async
        -> Harness.Case
    {
        await shrink([failing], attemptsPerCandidate: attemptsPerCandidate, budget: budget)[0]
    }

    /// `shrink(_:)` for renders sharing a cache: also drops renders. A hang is looked for with a
    /// short timeout, so that shrinking one does not take hours.
    static func shrink(_ failing: [Harness.Case], attemptsPerCandidate: Int = 4, budget: Int = 3_000) async
        -> [Harness.Case]
    {
        var current = failing
        var tries = 0
        var improved = true
        while improved && tries < budget {
            improved = false
            for candidate in simplifications(of: current) where candidate.allSatisfy(Model.isValid) {
                tries += 1
                if tries > budget { break }
                if await checkRepeatedly(candidate, times: attemptsPerCandidate, timeout: .seconds(2)) != nil {
                    current = candidate
                    improved = true
                    break
                }
            }
        }
        return current
    }

    static func simplifications(of cases: [Harness.Case]) -> [[Harness.Case]] {
        var result: [[Harness.Case]] = []
        if cases.count > 1 {
            for index in cases.indices {
                var copy = cases
                copy.remove(at: index)
                result.append(copy)
            }
        }
        for index in cases.indices {
            for root in variants(of: cases[index].root) {
                var copy = cases
                copy[index].root = root
                result.append(copy)
            }
        }
        for (key, outcome) in cases[0].outcomes.sorted(by: { $0.key < $1.key }) {
            let simpler: Harness.KeyOutcome
            switch outcome {
            case .success(let latency) where latency > 0: simpler = .success(latency: 0)
            case .failure(let latency) where latency > 0: simpler = .failure(latency: 0)
            default: continue
            }
            result.append(
                cases.map { testCase in
                    var copy = testCase
                    copy.outcomes[key] = simpler
                    return copy
                })
        }
        // A render alone keeps no foreign keys; renders together, those of the others.
        return result.map { $0.count == 1 ? $0.map(\.withoutForeignKeys) : Harness.Generator.withForeignKeys($0) }
    }

    static func simplifications(of testCase: Harness.Case) -> [Harness.Case] {
        simplifications(of: [testCase]).map { $0[0] }
    }

    /// Every list obtained by simplifying one node of `list` one step.
    static func variants(of list: [Harness.Desc]) -> [[Harness.Desc]] {
        var result: [[Harness.Desc]] = []
        for (index, node) in list.enumerated() {
            func replacing(with replacement: [Harness.Desc]) -> [Harness.Desc] {
                var copy = list
                copy.replaceSubrange(index...index, with: replacement)
                return copy
            }
            result.append(replacing(with: []))
            switch node {
            case .text(let text):
                if text != "x" { result.append(replacing(with: [.text("x")])) }
            case .element(let tag, let attributes, let children):
                result.append(replacing(with: [.text("x")]))
                result.append(replacing(with: children))
                if !attributes.isEmpty {
                    result.append(replacing(with: [.element(tag: tag, attributes: [], children: children)]))
                }
                for variant in variants(of: children) {
                    result.append(replacing(with: [.element(tag: tag, attributes: attributes, children: variant)]))
                }
            case .gen(let spec):
                result.append(replacing(with: [.text("x")]))
                result.append(replacing(with: spec.children))
                for keyIndex in spec.keys.indices {
                    var copy = spec
                    copy.keys.remove(at: keyIndex)
                    result.append(replacing(with: [.gen(copy)]))
                }
                if spec.throwsAfterReading {
                    var copy = spec
                    copy.throwsAfterReading = false
                    result.append(replacing(with: [.gen(copy)]))
                }
                if spec.readsInInit {
                    var copy = spec
                    copy.readsInInit = false
                    result.append(replacing(with: [.gen(copy)]))
                }
                for variant in variants(of: spec.children) {
                    var copy = spec
                    copy.children = variant
                    result.append(replacing(with: [.gen(copy)]))
                }
            case .suspense(let content, let fallback):
                result.append(replacing(with: [.text("x")]))
                result.append(replacing(with: content))
                for variant in variants(of: content) {
                    result.append(replacing(with: [.suspense(content: variant, fallback: fallback)]))
                }
                for variant in variants(of: fallback) {
                    result.append(replacing(with: [.suspense(content: content, fallback: variant)]))
                }
            case .errorBoundary(let content, let fallback):
                result.append(replacing(with: [.text("x")]))
                result.append(replacing(with: content))
                for variant in variants(of: content) {
                    result.append(replacing(with: [.errorBoundary(content: variant, fallback: fallback)]))
                }
                for variant in variants(of: fallback) {
                    result.append(replacing(with: [.errorBoundary(content: content, fallback: variant)]))
                }
            case .typedSuspense(let spec):
                result.append(replacing(with: [.text("x")]))
                result.append(replacing(with: spec.content))
                result.append(replacing(with: [.suspense(content: spec.content, fallback: spec.fallback)]))
                for variant in variants(of: spec.content) {
                    var copy = spec
                    copy.content = variant
                    result.append(replacing(with: [.typedSuspense(copy)]))
                }
                for variant in variants(of: spec.fallback) {
                    var copy = spec
                    copy.fallback = variant
                    result.append(replacing(with: [.typedSuspense(copy)]))
                }
            case .keyless(let spec):
                result.append(replacing(with: [.text("x")]))
                result.append(replacing(with: spec.children))
                if spec.fails {
                    var copy = spec
                    copy.fails = false
                    result.append(replacing(with: [.keyless(copy)]))
                }
                if spec.latency > 0 {
                    var copy = spec
                    copy.latency = 0
                    result.append(replacing(with: [.keyless(copy)]))
                }
                if spec.readsInInit {
                    var copy = spec
                    copy.readsInInit = false
                    result.append(replacing(with: [.keyless(copy)]))
                }
                if spec.throwsPromise {
                    var copy = spec
                    copy.throwsPromise = false
                    result.append(replacing(with: [.keyless(copy)]))
                }
                for variant in variants(of: spec.children) {
                    var copy = spec
                    copy.children = variant
                    result.append(replacing(with: [.keyless(copy)]))
                }
            }
        }
        return result
    }

    // MARK: Printing

    /// Renders sharing a cache, each as `describe(_:)` shows it.
    static func describe(_ cases: [Harness.Case]) -> String {
        if cases.count == 1 { return describe(cases[0]) }
        return cases.enumerated().map { index, testCase in
            "render \(index + 1) of \(cases.count), sharing one cache:\n" + describe(testCase)
        }.joined(separator: "\n")
    }

    /// The case as the component tree a user would write, plus what each key does.
    static func describe(_ testCase: Harness.Case) -> String {
        var lines: [String] = []
        func emit(_ list: [Harness.Desc], _ indent: String) {
            for node in list {
                switch node {
                case .text(let text):
                    lines.append(indent + "Text(\(TreeRenderer.quoted(text)))")
                case .element(let tag, let attributes, let children):
                    let attributeList = attributes.map { "\($0.name)=\(TreeRenderer.quoted($0.value))" }.joined(
                        separator: " ")
                    lines.append(indent + "Element(\"\(tag)\"\(attributes.isEmpty ? "" : " " + attributeList)) {")
                    emit(children, indent + "    ")
                    lines.append(indent + "}")
                case .gen(let spec):
                    var traits = [
                        "keys: [\(spec.keys.joined(separator: ", "))]",
                        spec.readsInInit ? "reads in init" : "reads in body",
                    ]
                    if spec.throwsAfterReading { traits.append("then throws") }
                    lines.append(indent + "Gen#\(spec.id)(\(traits.joined(separator: ", "))) {")
                    emit(spec.children, indent + "    ")
                    lines.append(indent + "}")
                case .suspense(let content, let fallback):
                    lines.append(indent + "Suspense {")
                    emit(content, indent + "    ")
                    lines.append(indent + "} fallback: {")
                    emit(fallback, indent + "    ")
                    lines.append(indent + "}")
                case .errorBoundary(let content, let fallback):
                    lines.append(indent + "ErrorBoundary {")
                    emit(content, indent + "    ")
                    lines.append(indent + "} fallback: { error in")
                    lines.append(indent + "    Text(\"caught: \\(error)\")")
                    emit(fallback, indent + "    ")
                    lines.append(indent + "}")
                case .typedSuspense(let spec):
                    lines.append(indent + "Suspense#T\(spec.id) { (value: Value\(spec.type.rawValue)?) in")
                    emit(spec.content, indent + "    ")
                    lines.append(indent + "} fallback: {")
                    emit(spec.fallback, indent + "    ")
                    lines.append(indent + "}")
                case .keyless(let spec):
                    let type = "Value\(spec.type.rawValue)"
                    let traits = [
                        spec.throwsPromise ? "throw Promise<\(type)>.pending(query:)" : "resolveValue(value: \(type)?)",
                        spec.fails ? "query fails" : "query succeeds",
                        "latency \(spec.latency)",
                        spec.readsInInit ? "reads in init" : "reads in body",
                    ]
                    lines.append(indent + "K#\(spec.id)(\(traits.joined(separator: ", "))) {")
                    emit(spec.children, indent + "    ")
                    lines.append(indent + "}")
                }
            }
        }
        lines.append("Page {")
        emit(testCase.root, "    ")
        lines.append("}")
        let used = usedKeys(testCase.root)
        lines.append("keys (deliveryOrder: .\(testCase.deliveryOrder)):")
        if !testCase.foreignKeys.isEmpty {
            lines.append("    (other renders may run: \(testCase.foreignKeys.sorted().joined(separator: ", ")))")
        }
        for key in testCase.outcomes.keys.sorted() where used.contains(key) {
            lines.append("    \(key): \(testCase.outcomes[key]!)")
        }
        return lines.joined(separator: "\n")
    }

    static func usedKeys(_ list: [Harness.Desc]) -> Set<String> {
        var keys = Set<String>()
        for node in list {
            switch node {
            case .text: break
            case .element(_, _, let children): keys.formUnion(usedKeys(children))
            case .gen(let spec): keys.formUnion(spec.keys); keys.formUnion(usedKeys(spec.children))
            case .keyless(let spec): keys.formUnion(usedKeys(spec.children))
            case .suspense(let a, let b), .errorBoundary(let a, let b):
                keys.formUnion(usedKeys(a)); keys.formUnion(usedKeys(b))
            case .typedSuspense(let spec):
                keys.formUnion(usedKeys(spec.content)); keys.formUnion(usedKeys(spec.fallback))
            }
        }
        return keys
    }

    /// The number of nodes a case describes.
    static func size(_ list: [Harness.Desc]) -> Int {
        list.reduce(0) { total, node in
            switch node {
            case .text: return total + 1
            case .element(_, _, let children): return total + 1 + size(children)
            case .gen(let spec): return total + 1 + size(spec.children)
            case .keyless(let spec): return total + 1 + size(spec.children)
            case .suspense(let a, let b), .errorBoundary(let a, let b): return total + 1 + size(a) + size(b)
            case .typedSuspense(let spec): return total + 1 + size(spec.content) + size(spec.fallback)
            }
        }
    }
}

extension ReliabilityHarness.Case {
    fileprivate var withoutForeignKeys: Self {
        var copy = self
        copy.foreignKeys = []
        return copy
    }
}

extension Node {
    fileprivate func rendered(asTreeOr fallback: String) -> String {
        (try? rendered(as: .tree)) ?? fallback
    }
}
