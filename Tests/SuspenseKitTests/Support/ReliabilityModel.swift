@testable import SuspenseKit

/// The reference model of the property test: what `resolve(_:)` must produce for a generated
/// case, computed by plain recursion over the case's description, written without looking at
/// how the resolver schedules anything.
///
/// It follows DESIGN.md's semantics:
/// - an element with an attribute name given twice throws at the element;
/// - a component reads its keys in order; the first failed key (or its own throw) is its error;
///   otherwise it shows its text and children;
/// - a `Suspense` shows its content once resolved; since every query of a generated case ends,
///   every surviving `Suspense` ends resolved, also one whose content suspended again after it
///   had resolved (an ErrorBoundary's fallback that suspends when a late error arrives);
/// - a keyless promise goes to the nearest typed `Suspense` of its value type, however many other
///   Suspenses lie between; that Suspense's content is evaluated again from scratch with the
///   value, so every component reading it finally shows it (`K#<id> T<id of the Suspense>`),
///   and what the content finally shows is what a later pass shows;
/// - an error goes to the nearest `ErrorBoundary` above the component that threw it; an error
///   thrown by a boundary's fallback goes to the next boundary outside; with none left, the
///   render throws a `RenderError` with the component path;
/// - the render's first pass is synchronous and sees only the keys stored before the render, so
///   there every other read suspends, and an error thrown there stops the evaluation of what
///   follows it, up to the boundary that catches it. A `Suspense`'s fallback is evaluated only
///   if its content suspended in that first evaluation and did not throw. With a cache shared
///   between renders, a key another render runs may have finished already (`foreignKeys`): its
///   read in the first pass may hit, and its error may be thrown then or later (`maybeNow`).
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
        /// First pass only: errors that may or may not be thrown during this pass, ahead of
        /// `thrown` if there is one (reads of foreign keys, whose results may be stored already).
        var maybeNow: [Thrown] = []
        /// First pass only: whether something is left waiting on a query, counted by the nearest
        /// Suspense above.
        var suspends = false
    }

    /// The typed Suspenses enclosing a place: the id of the nearest one of each value type.
    typealias Scope = [Harness.ValueType: Int]

    static func outcome(of testCase: Harness.Case) -> Outcome {
        let model = Evaluator(testCase: testCase)
        let region = model.list(testCase.root, .first, ["Page"], [:])
        if let thrown = region.thrown { return .renderError(unique(region.maybeNow + [thrown])) }
        if !region.errors.isEmpty { return .renderError(unique(region.errors)) }
        return .tree(.node(.fragment, [.node(.component(name: "Page"), region.nodes)]))
    }

    private struct Evaluator {
        let testCase: Harness.Case

        func list(_ descriptions: [Harness.Desc], _ pass: Pass, _ path: [String], _ scope: Scope) -> Region {
            var region = Region()
            for description in descriptions {
                let next = one(description, pass, path, scope)
                region.nodes += next.nodes
                region.errors += next.errors
                region.maybeNow += next.maybeNow
                region.suspends = region.suspends || next.suspends
                if let thrown = next.thrown {
                    region.thrown = thrown
                    break
                }
            }
            return region
        }

        func one(_ description: Harness.Desc, _ pass: Pass, _ path: [String], _ scope: Scope) -> Region {
            switch description {
            case .text(let text):
                return Region(nodes: [.node(.text(text), [])])
            case .element(let tag, let attributes, let children):
                // An attribute name given twice is an error at the element, before its children.
                var seen: Set<String> = []
                if let again = attributes.first(where: { !seen.insert($0.name.lowercased()).inserted }) {
                    let thrown = Thrown(
                        path: path,
                        message: "duplicate attribute \"\(again.name)\" on <\(tag)>: it is given twice (HTML ignores "
                            + "the letter case of attribute names), and a browser would keep only the first")
                    return Region(thrown: thrown, errors: [thrown])
                }
                var region = list(children, pass, path, scope)
                region.nodes = [.node(.element(tag: tag, attributes: attributes), region.nodes)]
                return region
            case .gen(let spec):
                return gen(spec, pass, path, scope)
            case .keyless(let spec):
                return keyless(spec, pass, path, scope)
            case .suspense(let content, let fallback):
                return suspense(content: content, fallback: fallback, typed: nil, pass, path, scope)
            case .typedSuspense(let spec):
                return suspense(content: spec.content, fallback: spec.fallback, typed: spec, pass, path, scope)
            case .errorBoundary(let content, let fallback):
                return errorBoundary(content: content, fallback: fallback, pass, path, scope)
            }
        }

        func gen(_ spec: Harness.GenSpec, _ pass: Pass, _ path: [String], _ scope: Scope) -> Region {
            let path = path + ["Gen"]
            var pass = pass
            var values: [String] = []
            // Whether a read may or may not have hit: then a throw may happen now or later.
            var uncertain = false
            // First pass: a foreign key read, so what follows may happen now or later.
            var maybeNow = false
            func fail(_ message: String) -> Region {
                let thrown = Thrown(path: path, message: message)
                return Region(thrown: uncertain ? nil : thrown, errors: [thrown], maybeNow: maybeNow ? [thrown] : [])
            }
            for key in spec.keys {
                switch testCase.outcomes[key] ?? .success(latency: 0) {
                case .storedValue:
                    values.append(testCase.value(of: key))
                case .storedFailure:
                    return fail(Harness.Failure.stored(key).message)
                case .success, .failure:
                    if pass == .first {
                        if !testCase.foreignKeys.contains(key) {
                            // A certain miss: the component waits, and is evaluated again later.
                            var later = gen(spec, .later, Array(path.dropLast()), scope)
                            later.thrown = nil
                            later.suspends = true
                            return later
                        }
                        // Another render may have stored it: it hits now, or the component waits.
                        maybeNow = true
                        pass = .later
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
            var region = list(spec.children, pass, path, scope)
            let label = Expected.node(.text(testCase.label(spec, values: values)), [])
            region.nodes = [.node(.component(name: "Gen"), [label] + region.nodes)]
            if uncertain { region.thrown = nil }
            if maybeNow {
                region.maybeNow = region.errors
                region.suspends = true
            }
            return region
        }

        /// A component reading its typed Suspense's value: it always waits first (nothing
        /// caches a keyless query), then fails, or shows the value once the Suspense's content
        /// is evaluated again with it, in a later pass.
        func keyless(_ spec: Harness.KeylessSpec, _ pass: Pass, _ path: [String], _ scope: Scope) -> Region {
            let path = path + ["Keyless"]
            guard let target = scope[spec.type] else {
                preconditionFailure("generator bug: a keyless promise with no typed Suspense of its type")
            }
            if spec.fails {
                return Region(
                    errors: [Thrown(path: path, message: Harness.Failure.keyless(spec.id).message)],
                    suspends: pass == .first)
            }
            var region = list(spec.children, .later, path, scope)
            let label = Expected.node(.text("K#\(spec.id) T\(target)"), [])
            region.nodes = [.node(.component(name: "Keyless"), [label] + region.nodes)]
            region.thrown = nil
            region.maybeNow = []
            region.suspends = pass == .first
            return region
        }

        func suspense(
            content: [Harness.Desc], fallback: [Harness.Desc], typed: Harness.TypedSpec?, _ pass: Pass,
            _ path: [String], _ scope: Scope
        ) -> Region {
            let path = path + ["Suspense"]
            var inside = scope
            if let typed { inside[typed.type] = typed.id }
            let inner = list(content, pass, path, inside)
            var region = Region(
                nodes: [.node(.suspense(.resolved), inner.nodes)], thrown: inner.thrown, errors: inner.errors,
                maybeNow: inner.maybeNow)
            if inner.thrown != nil { return region }
            if let typed, ReliabilityModel.receivesValue(typed) {
                // The value's arrival evaluates the content again from scratch: it finally shows
                // what a later pass shows, and may throw what either evaluation throws.
                let again = list(content, .later, path, inside)
                region.nodes = [.node(.suspense(.resolved), again.nodes)]
                region.errors = ReliabilityModel.unique(inner.errors + again.errors)
            }
            switch pass {
            case .first:
                // Content suspensions count for this Suspense; its fallback's for the one above.
                if inner.suspends {
                    let shown = list(fallback, .first, path, scope)
                    region.errors += shown.errors
                    region.maybeNow += shown.maybeNow
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

        func errorBoundary(
            content: [Harness.Desc], fallback: [Harness.Desc], _ pass: Pass, _ path: [String], _ scope: Scope
        ) -> Region {
            let path = path + ["ErrorBoundary"]
            let inner = list(content, pass, path, scope)
            func shown(_ message: String, _ pass: Pass) -> Region {
                var region = list(fallback, pass, path, scope)
                region.nodes.insert(.node(.text("caught: \(message)"), []), at: 0)
                return region
            }
            if pass == .first, let thrown = inner.thrown, inner.maybeNow.isEmpty {
                // Caught during the first pass: exactly this error; the fallback is evaluated now.
                var region = shown(thrown.message, .first)
                region.nodes = [.node(.errorBoundary(.caught(thrown.message)), region.nodes)]
                return region
            }
            if inner.errors.isEmpty {
                return Region(nodes: [.node(.errorBoundary(.clean), inner.nodes)], suspends: inner.suspends)
            }
            // Caught later, or during a later pass, or now but one of several: whichever comes
            // first. Now, that is the certain error or a foreign read's error ahead of it. The
            // fallback's own errors do not depend on which error it shows.
            let candidates =
                pass == .first && inner.thrown != nil ? inner.maybeNow + [inner.thrown!] : inner.errors
            let messages = ReliabilityModel.unique(candidates.map(\.message))
            let representative = shown(messages[0], .later)
            let evaluator = self
            let mayCatchNow = pass == .first && !inner.maybeNow.isEmpty
            return Region(
                nodes: [
                    .caughtAny(messages) {
                        evaluator.list(fallback, .later, path, scope).nodes.prepending(
                            .node(.text("caught: \($0)"), []))
                    }
                ],
                thrown: inner.thrown == nil ? nil : representative.thrown,
                errors: representative.errors,
                maybeNow: mayCatchNow ? representative.errors : [],
                suspends: pass == .first ? inner.suspends : false
            )
        }
    }

    // MARK: Generator invariants

    /// Whether a subtree can throw at all: no failing key, no throwing component. A keyless
    /// promise counts as unsafe too: in a Suspense's fallback it would reach a typed Suspense
    /// outside, whose content would then depend on whether the fallback was ever shown.
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
        case .keyless:
            return false
        case .suspense(let content, let fallback), .errorBoundary(let content, let fallback):
            return isSafe(content, outcomes) && isSafe(fallback, outcomes)
        case .typedSuspense(let spec):
            return isSafe(spec.content, outcomes) && isSafe(spec.fallback, outcomes)
        }
    }

    /// Whether anything in a subtree can suspend: a key not stored, or a keyless promise.
    static func canSuspend(
        _ descriptions: [Harness.Desc], _ outcomes: [String: Harness.KeyOutcome]
    ) -> Bool {
        descriptions.contains { description in
            switch description {
            case .text:
                return false
            case .element(_, _, let children):
                return canSuspend(children, outcomes)
            case .gen(let spec):
                return spec.keys.contains { !(outcomes[$0]?.isStored ?? false) }
                    || canSuspend(spec.children, outcomes)
            case .keyless:
                return true
            case .suspense(let content, let fallback), .errorBoundary(let content, let fallback):
                return canSuspend(content, outcomes)
                    || canSuspend(fallback, outcomes)
            case .typedSuspense(let spec):
                return canSuspend(spec.content, outcomes)
                    || canSuspend(spec.fallback, outcomes)
            }
        }
    }

    /// Whether something may suspend in a Suspense's content after the Suspense resolved,
    /// turning it back to pending (and evaluating its fallback again, in a later pass): an
    /// ErrorBoundary whose fallback can suspend, or a nested Suspense that may go back to pending
    /// itself (a typed one may, when its value arrives) and whose fallback can suspend.
    static func mayReopen(_ content: [Harness.Desc], _ outcomes: [String: Harness.KeyOutcome]) -> Bool {
        content.contains { description in
            switch description {
            case .text:
                return false
            case .element(_, _, let children):
                return mayReopen(children, outcomes)
            case .gen(let spec):
                return mayReopen(spec.children, outcomes)
            case .keyless(let spec):
                return mayReopen(spec.children, outcomes)
            case .errorBoundary(let content, let fallback):
                return mayReopen(content, outcomes) || canSuspend(fallback, outcomes)
            case .suspense(let content, let fallback):
                return canSuspend(fallback, outcomes) && mayReopen(content, outcomes)
            case .typedSuspense(let spec):
                return canSuspend(spec.fallback, outcomes)
            }
        }
    }

    /// Whether a succeeding keyless promise beneath a typed Suspense reaches it (rather than a
    /// nearer one of the same type): then its content is evaluated again with the value.
    static func receivesValue(_ typed: Harness.TypedSpec) -> Bool {
        func reaches(_ descriptions: [Harness.Desc]) -> Bool {
            descriptions.contains { description in
                switch description {
                case .text:
                    return false
                case .element(_, _, let children):
                    return reaches(children)
                case .gen(let spec):
                    return reaches(spec.children)
                case .keyless(let spec):
                    return (spec.type == typed.type && !spec.fails) || reaches(spec.children)
                case .suspense(let content, let fallback), .errorBoundary(let content, let fallback):
                    return reaches(content) || reaches(fallback)
                case .typedSuspense(let spec):
                    return (spec.type != typed.type && reaches(spec.content)) || reaches(spec.fallback)
                }
            }
        }
        return reaches(typed.content)
    }

    /// Whether a case keeps the rules that make the model exact (see `Generator`):
    /// - a Suspense fallback that may throw is only where the Suspense is certainly evaluated in
    ///   the first pass, where it throws, if at all, as soon as it is evaluated, and where its
    ///   content cannot suspend again once resolved; none in a render sharing its cache, nor in
    ///   a typed Suspense's content (evaluated again later), nor as a typed Suspense's fallback;
    /// - no keyless promise in a Suspense's fallback, and each has a typed Suspense of its type;
    /// - a keyless promise that fails is the only one reaching its typed Suspense: otherwise
    ///   whether the value or the error comes first would decide the outcome;
    static func isValid(_ testCase: Harness.Case) -> Bool {
        let outcomes = testCase.outcomes
        var readers: [Int: (succeeding: Int, failing: Int)] = [:]
        func valid(_ descriptions: [Harness.Desc], certainFirst: Bool, _ scope: Scope) -> Bool {
            descriptions.allSatisfy { valid($0, certainFirst: certainFirst, scope) }
        }
        func valid(_ description: Harness.Desc, certainFirst: Bool, _ scope: Scope) -> Bool {
            switch description {
            case .text:
                return true
            case .element(_, _, let children):
                return valid(children, certainFirst: certainFirst, scope)
            case .gen(let spec):
                let stored = spec.keys.allSatisfy { outcomes[$0] == .storedValue }
                return valid(spec.children, certainFirst: certainFirst && stored, scope)
            case .keyless(let spec):
                guard let target = scope[spec.type] else { return false }
                if spec.fails {
                    readers[target, default: (0, 0)].failing += 1
                } else {
                    readers[target, default: (0, 0)].succeeding += 1
                }
                return valid(spec.children, certainFirst: false, scope)
            case .suspense(let content, let fallback):
                guard valid(content, certainFirst: certainFirst, scope) else { return false }
                let reopens = mayReopen(content, outcomes)
                return fallback.allSatisfy { item in
                    if isSafe(item, outcomes) { return true }
                    guard certainFirst, !reopens, case .gen(let spec) = item else { return false }
                    return spec.keys.allSatisfy { outcomes[$0]?.isStored ?? false } && isSafe(spec.children, outcomes)
                }
            case .typedSuspense(let spec):
                var inside = scope
                inside[spec.type] = spec.id
                return valid(spec.content, certainFirst: false, inside) && isSafe(spec.fallback, outcomes)
            case .errorBoundary(let content, let fallback):
                return valid(content, certainFirst: certainFirst, scope) && valid(fallback, certainFirst: false, scope)
            }
        }
        guard valid(testCase.root, certainFirst: testCase.foreignKeys.isEmpty, [:]) else { return false }
        return readers.values.allSatisfy { $0.failing == 0 || $0.failing + $0.succeeding == 1 }
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
