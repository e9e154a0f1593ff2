@testable import SuspenseKit

/// The reference model of the property test: what `resolve(_:)` must produce for a generated
/// case, computed by plain recursion over the case's description, written without looking at
/// how the resolver schedules anything.
///
/// It follows DESIGN.md's semantics:
/// - a component reads its keys in order; the first failed key (or its own throw) is its error;
///   otherwise it shows its text and children;
/// - a `Suspense` shows its content once resolved; since every query of a generated case ends,
///   every surviving `Suspense` ends resolved;
/// - an error goes to the nearest `ErrorBoundary` above the component that threw it; an error
///   thrown by a boundary's fallback goes to the next boundary outside; with none left, the
///   render throws a `RenderError` with the component path;
/// - the render's first pass is synchronous and sees only the keys stored before the render, so
///   there every other read suspends, and an error thrown there stops the evaluation of what
///   follows it, up to the boundary that catches it. A `Suspense`'s fallback is evaluated only
///   if its content suspended in that first evaluation and did not throw.
///
/// Where the outcome legitimately depends on which query finishes first, namely which of several
/// errors beneath a boundary reaches it first, the model gives every allowed outcome (`caughtAny`
/// lists the errors the boundary may show), and the real tree must be one of them.
enum ReliabilityModel {
    typealias Harness = ReliabilityHarness

    /// An error the model expects: where it is thrown and its description.
    struct Thrown: Hashable, CustomStringConvertible {
        let path: [String]
        let message: String
        var description: String { "\(path.joined(separator: " > ")): \(message)" }
    }

    /// An expected node, or an error boundary that may show any of several caught errors.
    indirect enum Expected {
        case node(Node.Kind, [Expected])
        case caughtAny([String], fallback: (String) -> [Expected])
    }

    /// The expected result of a whole render.
    enum Outcome {
        case tree(Expected)
        /// The render throws a `RenderError` that is one of these.
        case renderError([Thrown])
    }

    /// Evaluation passes: the render's first, synchronous pass, where only stored keys hit, or a
    /// later one, run when a query result arrives, where any key may already have resolved.
    enum Pass { case first, later }

    /// What evaluating a list of siblings gives.
    struct Region {
        /// The nodes, if no error escapes.
        var nodes: [Expected] = []
        /// An error thrown for certain during this pass: evaluation stops there.
        var thrown: Thrown?
        /// Every error that may escape, now or later (a superset, `thrown` included); if it is not
        /// empty, one of them does escape.
        var errors: [Thrown] = []
        /// First pass only: whether something is left waiting on a query, counted by the nearest
        /// Suspense above.
        var suspends = false
    }

    static func outcome(of testCase: Harness.Case) -> Outcome {
        let model = Evaluator(testCase: testCase)
        let region = model.list(testCase.root, .first, ["Page"])
        if let thrown = region.thrown { return .renderError([thrown]) }
        if !region.errors.isEmpty { return .renderError(unique(region.errors)) }
        return .tree(.node(.fragment, [.node(.component(name: "Page"), region.nodes)]))
    }

    private struct Evaluator {
        let testCase: Harness.Case

        func list(_ descriptions: [Harness.Desc], _ pass: Pass, _ path: [String]) -> Region {
            var region = Region()
            for description in descriptions {
                let next = one(description, pass, path)
                region.nodes += next.nodes
                region.errors += next.errors
                region.suspends = region.suspends || next.suspends
                if let thrown = next.thrown {
                    region.thrown = thrown
                    break
                }
            }
            return region
        }

        func one(_ description: Harness.Desc, _ pass: Pass, _ path: [String]) -> Region {
            switch description {
            case .text(let text):
                return Region(nodes: [.node(.text(text), [])])
            case .element(let tag, let attributes, let children):
                var region = list(children, pass, path)
                region.nodes = [.node(.element(tag: tag, attributes: attributes), region.nodes)]
                return region
            case .gen(let spec):
                return gen(spec, pass, path)
            case .suspense(let content, let fallback):
                return suspense(content: content, fallback: fallback, pass, path)
            case .errorBoundary(let content, let fallback):
                return errorBoundary(content: content, fallback: fallback, pass, path)
            }
        }

        func gen(_ spec: Harness.GenSpec, _ pass: Pass, _ path: [String]) -> Region {
            let path = path + ["Gen"]
            var values: [String] = []
            // Whether a read may or may not have hit: then a throw may happen now or later.
            var uncertain = false
            func fail(_ message: String) -> Region {
                let thrown = Thrown(path: path, message: message)
                return Region(thrown: uncertain ? nil : thrown, errors: [thrown])
            }
            for key in spec.keys {
                switch testCase.outcomes[key] ?? .success(latency: 0) {
                case .storedValue:
                    values.append(testCase.value(of: key))
                case .storedFailure:
                    return fail(Harness.Failure.stored(key).message)
                case .success, .failure:
                    if pass == .first {
                        // A certain miss: the component waits, and is evaluated again later.
                        var later = gen(spec, .later, Array(path.dropLast()))
                        later.thrown = nil
                        later.suspends = true
                        return later
                    }
                    uncertain = true
                    if testCase.outcomes[key]!.isFailure {
                        return fail(Harness.Failure.query(key).message)
                    }
                    values.append(testCase.value(of: key))
                }
            }
            if spec.throwsAfterReading {
                return fail(Harness.Failure.thrown(by: spec.id).message)
            }
            var region = list(spec.children, pass, path)
            let label = Expected.node(.text(testCase.label(spec, values: values)), [])
            region.nodes = [.node(.component(name: "Gen"), [label] + region.nodes)]
            if uncertain { region.thrown = nil }
            return region
        }

        func suspense(content: [Harness.Desc], fallback: [Harness.Desc], _ pass: Pass, _ path: [String]) -> Region {
            let path = path + ["Suspense"]
            let inner = list(content, pass, path)
            var region = Region(
                nodes: [.node(.suspense(.resolved), inner.nodes)], thrown: inner.thrown, errors: inner.errors)
            if inner.thrown != nil { return region }
            switch pass {
            case .first:
                // Content suspensions count for this Suspense; its fallback's for the one above.
                if inner.suspends {
                    let shown = list(fallback, .first, path)
                    region.errors += shown.errors
                    region.thrown = shown.thrown
                    region.suspends = shown.suspends
                }
            case .later:
                // Evaluated or not depending on timing; the generator keeps such fallbacks free of
                // errors, and once the content resolves they leave no trace.
                precondition(
                    ReliabilityModel.isSafe(fallback, testCase.outcomes),
                    "generator bug: unsafe fallback outside the first pass")
            }
            return region
        }

        func errorBoundary(content: [Harness.Desc], fallback: [Harness.Desc], _ pass: Pass, _ path: [String]) -> Region
        {
            let path = path + ["ErrorBoundary"]
            let inner = list(content, pass, path)
            func shown(_ message: String, _ pass: Pass) -> Region {
                var region = list(fallback, pass, path)
                region.nodes.insert(.node(.text("caught: \(message)"), []), at: 0)
                return region
            }
            if pass == .first, let thrown = inner.thrown {
                // Caught during the first pass: exactly this error; the fallback is evaluated now.
                var region = shown(thrown.message, .first)
                region.nodes = [.node(.errorBoundary(.caught(thrown.message)), region.nodes)]
                return region
            }
            if inner.errors.isEmpty {
                return Region(nodes: [.node(.errorBoundary(.clean), inner.nodes)], suspends: inner.suspends)
            }
            // Caught later, or during a later pass: one of the errors, whichever comes first. The
            // fallback's own errors do not depend on which error it shows.
            let messages = ReliabilityModel.unique(inner.errors.map(\.message))
            let representative = shown(messages[0], .later)
            let evaluator = self
            return Region(
                nodes: [
                    .caughtAny(messages) {
                        evaluator.list(fallback, .later, path).nodes.prepending(.node(.text("caught: \($0)"), []))
                    }
                ],
                thrown: inner.thrown == nil ? nil : representative.thrown,
                errors: representative.errors,
                suspends: pass == .first ? inner.suspends : false
            )
        }
    }

    // MARK: Generator invariants

    /// Whether a subtree can throw at all: no failing key, no throwing component.
    static func isSafe(_ descriptions: [Harness.Desc], _ outcomes: [String: Harness.KeyOutcome]) -> Bool {
        descriptions.allSatisfy { isSafe($0, outcomes) }
    }

    static func isSafe(_ description: Harness.Desc, _ outcomes: [String: Harness.KeyOutcome]) -> Bool {
        switch description {
        case .text:
            return true
        case .element(_, _, let children):
            return isSafe(children, outcomes)
        case .gen(let spec):
            return !spec.throwsAfterReading && isSafe(spec.children, outcomes)
                && spec.keys.allSatisfy { !(outcomes[$0]?.isFailure ?? false) }
        case .suspense(let content, let fallback), .errorBoundary(let content, let fallback):
            return isSafe(content, outcomes) && isSafe(fallback, outcomes)
        }
    }

    /// Whether a case keeps the rule that makes the model exact (see `Generator`): a Suspense
    /// fallback that may throw is only where the Suspense is certainly evaluated in the first
    /// pass, and there it throws, if at all, as soon as it is evaluated.
    static func isValid(_ testCase: Harness.Case) -> Bool {
        let outcomes = testCase.outcomes
        func valid(_ descriptions: [Harness.Desc], certainFirst: Bool) -> Bool {
            descriptions.allSatisfy { valid($0, certainFirst: certainFirst) }
        }
        func valid(_ description: Harness.Desc, certainFirst: Bool) -> Bool {
            switch description {
            case .text:
                return true
            case .element(_, _, let children):
                return valid(children, certainFirst: certainFirst)
            case .gen(let spec):
                let stored = spec.keys.allSatisfy { outcomes[$0] == .storedValue }
                return valid(spec.children, certainFirst: certainFirst && stored)
            case .suspense(let content, let fallback):
                guard valid(content, certainFirst: certainFirst) else { return false }
                return fallback.allSatisfy { item in
                    if isSafe(item, outcomes) { return true }
                    guard certainFirst, case .gen(let spec) = item else { return false }
                    return spec.keys.allSatisfy { outcomes[$0]?.isStored ?? false } && isSafe(spec.children, outcomes)
                }
            case .errorBoundary(let content, let fallback):
                return valid(content, certainFirst: certainFirst) && valid(fallback, certainFirst: false)
            }
        }
        return valid(testCase.root, certainFirst: true)
    }

    static func unique<T: Hashable>(_ items: [T]) -> [T] {
        var seen = Set<T>()
        return items.filter { seen.insert($0).inserted }
    }
}

extension Array {
    fileprivate func prepending(_ element: Element) -> [Element] {
        [element] + self
    }
}
