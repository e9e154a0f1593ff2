@testable import SuspenseKit

extension ReliabilityHarness {
    /// Builds a random case from a seed: trees of up to a few hundred nodes mixing text,
    /// elements, generated components, nested Suspense and ErrorBoundary, typed Suspenses with
    /// components reading their values through keyless promises, and two shapes on purpose:
    /// content that suspends again inside a resolved Suspense (an ErrorBoundary whose fallback
    /// suspends when a late error arrives), and keyless promises thrown through untyped or
    /// differently typed Suspenses to the typed one of their type.
    ///
    /// Rules that keep the reference model exact (checked by `ReliabilityModel.isValid`):
    /// - a `Suspense` fallback that can throw is generated only where the Suspense is certainly
    ///   evaluated in the render's first pass (no component above it waits on a query, no typed
    ///   Suspense above it is evaluated again), because there every keyed read is a cache miss
    ///   unless the key was stored before the render, so whether the fallback is evaluated at all
    ///   does not depend on which query finished first; and only where its content cannot
    ///   suspend again after resolving, which would evaluate the fallback again at a time that
    ///   depends on timing. Elsewhere fallbacks can only suspend on queries that succeed (see
    ///   `ReliabilityModel.isSafe`). Renders sharing a cache get no throwing fallback at all:
    ///   another render may have stored any key their first pass reads;
    /// - keyless promises are never in a Suspense's fallback, and one that fails is the only one
    ///   reaching its typed Suspense (else the value and the error would race).

    struct Generator {
        private var random: ReliabilityRandom
        private var budget: Int
        private var nextID = 0
        private var nextDistinct = 0
        private var outcomes: [String: KeyOutcome] = [:]
        private let sharedKeys: [String]
        private let failureRate: Double
        private let throwRate: Double
        private let maxDepth: Int
        /// No throwing fallbacks: for renders sharing a cache.
        private let sharesCache: Bool
        /// Keyless readers of each typed Suspense so far, by its id.
        private var readers: [Int: (succeeding: Int, failing: Int)] = [:]

        /// The typed Suspenses enclosing a place being generated: the nearest of each type.
        typealias Scope = [ValueType: Int]

        static func makeCase(seed: UInt64) -> Case {
            var generator = Generator(seed: seed, sharesCache: false)
            let root = generator.list(depth: 0, certainFirst: true, scope: [:], count: nil)
            let order = generator.deliveryOrder(for: root)
            return Case(seed: seed, root: root, outcomes: generator.outcomes, deliveryOrder: order)
        }

        /// Two to four cases rendered at once with one cache: the same case again, or different
        /// trees over one table of key outcomes, so that the keys they share agree.
        static func makeGroup(seed: UInt64) -> [Case] {
            var generator = Generator(seed: seed, sharesCache: true)
            let count = generator.random.int(2...4)
            let same = generator.random.chance(0.35)
            var roots: [[Desc]] = []
            for index in 0..<count {
                if same && index > 0 {
                    roots.append(roots[0])
                } else {
                    if index > 0 { generator.budget = generator.makeBudget() }
                    roots.append(generator.list(depth: 0, certainFirst: false, scope: [:], count: nil))
                }
            }
            let cases = roots.map { root in
                Case(
                    seed: seed, root: root, outcomes: generator.outcomes,
                    deliveryOrder: generator.deliveryOrder(for: root))
            }
            return withForeignKeys(cases)
        }

        /// Sets each case's foreign keys: the keys not stored that the other cases read.
        static func withForeignKeys(_ cases: [Case]) -> [Case] {
            let used = cases.map { testCase in
                ReliabilityPropertyRunner.usedKeys(testCase.root).filter { !(testCase.outcomes[$0]?.isStored ?? false) }
            }
            return cases.enumerated().map { index, testCase in
                var copy = testCase
                copy.foreignKeys = used.indices.filter { $0 != index }.reduce(into: Set<String>()) {
                    $0.formUnion(used[$1])
                }
                return copy
            }
        }

        private init(seed: UInt64, sharesCache: Bool) {
            random = ReliabilityRandom(seed: seed)
            self.sharesCache = sharesCache
            budget = 0
            failureRate = Double(random.int(0...25)) / 100
            throwRate = Double(random.int(0...10)) / 100
            maxDepth = random.int(2...14)
            sharedKeys = (0..<random.int(1...6)).map { "s\($0)" }
            budget = makeBudget()
            for key in sharedKeys {
                outcomes[key] = makeOutcome()
            }
        }

        private mutating func makeBudget() -> Int {
            let range =
                sharesCache
                ? random.weighted([(50, 1...20), (35, 20...80), (15, 80...200)])
                : random.weighted([(40, 1...20), (35, 20...80), (25, 80...300)])
            return range.randomElement(using: &random)!
        }

        /// Either order, half the time each.
        private mutating func deliveryOrder(for root: [Desc]) -> RenderOptions.DeliveryOrder {
            random.chance(0.5) ? .discovery : .completion
        }

        // MARK: Keys

        private mutating func makeOutcome() -> KeyOutcome {
            if random.chance(failureRate) {
                return random.chance(0.8) ? .failure(latency: latency()) : .storedFailure
            }
            return random.chance(0.12) ? .storedValue : .success(latency: latency())
        }

        private mutating func latency() -> Int {
            random.weighted([(30, 0...0), (50, 1...10), (18, 11...63), (2, 64...128)]).randomElement(using: &random)!
        }

        private mutating func distinctKey(_ outcome: KeyOutcome) -> String {
            nextDistinct += 1
            let key = "d\(nextDistinct)"
            outcomes[key] = outcome
            return key
        }

        /// A key shared with other components, or one read here only.
        private mutating func anyKey() -> String {
            if random.chance(0.5) {
                return sharedKeys.randomElement(using: &random)!
            }
            return distinctKey(makeOutcome())
        }

        /// A key whose query succeeds: what a fallback may suspend on.
        private mutating func succeedingKey() -> String {
            let candidates = sharedKeys.filter { !(outcomes[$0]!.isFailure) }
            if random.chance(0.5), let key = candidates.randomElement(using: &random) {
                return key
            }
            return distinctKey(random.chance(0.15) ? .storedValue : .success(latency: latency()))
        }

        /// A key whose query fails after a while: an error that arrives late.
        private mutating func lateFailingKey() -> String {
            let candidates = sharedKeys.filter {
                if case .failure = outcomes[$0]! { return true }
                return false
            }
            if random.chance(0.3), let key = candidates.randomElement(using: &random) {
                return key
            }
            return distinctKey(.failure(latency: latency()))
        }

        // MARK: Trees

        private mutating func newID() -> Int {
            nextID += 1
            return nextID
        }

        private mutating func list(depth: Int, certainFirst: Bool, scope: Scope, count: Int?) -> [Desc] {
            let count = count ?? random.weighted([(2, 0), (5, 1), (5, 2), (4, 3), (2, 4), (1, 6)])
            var result: [Desc] = []
            for _ in 0..<count where budget > 0 {
                result.append(node(depth: depth, certainFirst: certainFirst, scope: scope))
            }
            return result
        }

        private mutating func node(depth: Int, certainFirst: Bool, scope: Scope) -> Desc {
            budget -= 1
            let leaf = depth >= maxDepth || budget <= 0
            enum Kind { case text, element, gen, keyless, suspense, errorBoundary, typed, resuspending, typedNest }
            var kind: Kind =
                leaf
                ? random.weighted([(1, .text), (1, .gen), (scope.isEmpty ? 0 : 1, .keyless)])
                : random.weighted([
                    (6, .text), (4, .element), (8, .gen), (scope.isEmpty ? 0 : 3, .keyless), (4, .suspense),
                    (4, .errorBoundary), (2, .typed), (1, .resuspending), (1, .typedNest),
                ])
            if kind == .keyless, keylessReader(scope: scope) == nil { kind = .gen }
            switch kind {
            case .text:
                return .text(text())
            case .element:
                return .element(
                    tag: tag(), attributes: attributes(),
                    children: list(depth: depth + 1, certainFirst: certainFirst, scope: scope, count: nil))
            case .gen:
                let keys = (0..<random.weighted([(3, 0), (5, 1), (3, 2), (1, 3)])).map { _ in anyKey() }
                let childrenFirst = certainFirst && keys.allSatisfy { outcomes[$0] == .storedValue }
                return .gen(
                    GenSpec(
                        id: newID(),
                        keys: keys,
                        readsInInit: random.chance(0.5),
                        throwsAfterReading: random.chance(throwRate),
                        children: leaf
                            ? [] : list(depth: depth + 1, certainFirst: childrenFirst, scope: scope, count: nil)
                    )
                )
            case .keyless:
                let (type, fails) = keylessReader(scope: scope)!
                return keyless(type, fails: fails, depth: depth, leaf: leaf, scope: scope)
            case .suspense:
                let content = list(depth: depth + 1, certainFirst: certainFirst, scope: scope, count: nil)
                let reopens = ReliabilityModel.mayReopen(content, outcomes)
                return .suspense(content: content, fallback: suspenseFallback(certainFirst: certainFirst && !reopens))
            case .errorBoundary:
                let content = list(depth: depth + 1, certainFirst: certainFirst, scope: scope, count: nil)
                let fallback = list(
                    depth: depth + 1, certainFirst: false, scope: scope,
                    count: random.weighted([(4, 0), (3, 1), (1, 2)]))
                return .errorBoundary(content: content, fallback: fallback)
            case .typed:
                let id = newID()
                let type = ValueType.allCases.randomElement(using: &random)!
                var inside = scope
                inside[type] = id
                // Evaluated again when its value arrives: nothing in it is certainly first-pass.
                let content = list(depth: depth + 1, certainFirst: false, scope: inside, count: nil)
                return .typedSuspense(
                    TypedSpec(id: id, type: type, content: content, fallback: suspenseFallback(certainFirst: false)))
            case .resuspending:
                return resuspending(depth: depth, certainFirst: certainFirst, scope: scope)
            case .typedNest:
                return typedNest(depth: depth, scope: scope)
            }
        }

        /// A type and whether the reader fails, for a keyless promise here; nil when none fits:
        /// a typed Suspense with a failing reader takes no other.
        private mutating func keylessReader(scope: Scope) -> (ValueType, Bool)? {
            let open = scope.filter { (readers[$0.value]?.failing ?? 0) == 0 }
            guard
                let (type, target) = open.sorted(by: { $0.key.rawValue < $1.key.rawValue }).randomElement(
                    using: &random)
            else { return nil }
            let fails = readers[target] == nil && random.chance(failureRate * 0.6)
            return (type, fails)
        }

        private mutating func keyless(_ type: ValueType, fails: Bool, depth: Int, leaf: Bool, scope: Scope) -> Desc {
            let target = scope[type]!
            if fails {
                readers[target, default: (0, 0)].failing += 1
            } else {
                readers[target, default: (0, 0)].succeeding += 1
            }
            return .keyless(
                KeylessSpec(
                    id: newID(), type: type, fails: fails, latency: latency(), readsInInit: random.chance(0.5),
                    throwsPromise: random.chance(0.3),
                    children: leaf ? [] : list(depth: depth + 1, certainFirst: false, scope: scope, count: nil)))
        }

        /// `Suspense { ErrorBoundary { Suspense { late failure } } fallback: { suspends } }`: the
        /// outer Suspense resolves first; the late error puts the boundary's fallback in place,
        /// which suspends, so the outer Suspense goes back to pending until the fallback
        /// resolves. Sometimes the outer one is typed and the fallback reads its value.
        private mutating func resuspending(depth: Int, certainFirst: Bool, scope: Scope) -> Desc {
            budget -= 4
            let typed: TypedSpec? =
                random.chance(0.35)
                ? TypedSpec(
                    id: newID(), type: ValueType.allCases.randomElement(using: &random)!, content: [], fallback: [])
                : nil
            var inside = scope
            if let typed { inside[typed.type] = typed.id }
            let readsValue = typed != nil && random.chance(0.7)
            // Taken before the content is generated, so that no reader there may fail.
            if let typed, readsValue { readers[typed.id] = (1, 0) }
            let firstPass = certainFirst && typed == nil
            // The late failure, perhaps after a value, perhaps deeper in the inner content.
            var lateKeys = [lateFailingKey()]
            if random.chance(0.3) { lateKeys.insert(succeedingKey(), at: 0) }
            let late = Desc.gen(
                GenSpec(
                    id: newID(), keys: lateKeys, readsInInit: random.chance(0.5), throwsAfterReading: false,
                    children: []))
            var innerContent = list(depth: depth + 3, certainFirst: firstPass, scope: inside, count: random.int(0...1))
            innerContent.insert(late, at: random.int(0...innerContent.count))
            // The fallback suspends on keys that succeed, and may read the typed value.
            var fallback: [Desc] = [
                .gen(
                    GenSpec(
                        id: newID(), keys: (0..<random.int(1...2)).map { _ in succeedingKey() },
                        readsInInit: random.chance(0.5), throwsAfterReading: false,
                        children: list(depth: depth + 3, certainFirst: false, scope: inside, count: random.int(0...1))))
            ]
            if let typed, readsValue {
                fallback.append(keyless(typed.type, fails: false, depth: depth + 2, leaf: true, scope: inside))
            }
            fallback += list(
                depth: depth + 2, certainFirst: false, scope: inside, count: random.weighted([(3, 0), (1, 1)]))
            let boundary = Desc.errorBoundary(
                content: [.suspense(content: innerContent, fallback: suspenseFallback(certainFirst: false))],
                fallback: fallback)
            var content = list(depth: depth + 1, certainFirst: firstPass, scope: inside, count: random.int(0...2))
            content.insert(boundary, at: random.int(0...content.count))
            if var typed {
                typed.content = content
                typed.fallback = suspenseFallback(certainFirst: false)
                return .typedSuspense(typed)
            }
            let reopens = ReliabilityModel.mayReopen(content, outcomes)
            return .suspense(content: content, fallback: suspenseFallback(certainFirst: certainFirst && !reopens))
        }

        /// A typed Suspense, one to three untyped (or differently typed) Suspenses in it, and
        /// components beneath those reading its value: the keyless promises pass through the
        /// others to it, and its content is evaluated again from scratch with the value.
        private mutating func typedNest(depth: Int, scope: Scope) -> Desc {
            budget -= 2
            let id = newID()
            let type = ValueType.allCases.randomElement(using: &random)!
            var inside = scope
            inside[type] = id
            // Taken before the content is generated, so that no reader there may fail.
            readers[id] = (1, 0)
            func layers(_ remaining: Int, depth: Int, scope: Scope) -> [Desc] {
                if remaining == 0 {
                    var items = [keyless(type, fails: false, depth: depth, leaf: random.chance(0.5), scope: scope)]
                    if random.chance(0.4), let (other, fails) = keylessReader(scope: scope) {
                        items.append(keyless(other, fails: fails, depth: depth, leaf: true, scope: scope))
                    }
                    items += list(depth: depth, certainFirst: false, scope: scope, count: random.int(0...2))
                    return items.shuffled(using: &random)
                }
                var siblings = list(
                    depth: depth, certainFirst: false, scope: scope, count: random.weighted([(3, 0), (1, 1)]))
                let nested: Desc
                if random.chance(0.3) {
                    // A typed Suspense of the other type between: the keyless promise passes it.
                    let otherID = newID()
                    let other = ValueType.allCases.first { $0 != type }!
                    var deeper = scope
                    deeper[other] = otherID
                    nested = .typedSuspense(
                        TypedSpec(
                            id: otherID, type: other, content: layers(remaining - 1, depth: depth + 1, scope: deeper),
                            fallback: suspenseFallback(certainFirst: false)))
                } else {
                    nested = .suspense(
                        content: layers(remaining - 1, depth: depth + 1, scope: scope),
                        fallback: suspenseFallback(certainFirst: false))
                }
                siblings.insert(nested, at: random.int(0...siblings.count))
                return siblings
            }
            let content = layers(random.int(1...3), depth: depth + 1, scope: inside)
            return .typedSuspense(
                TypedSpec(id: id, type: type, content: content, fallback: suspenseFallback(certainFirst: false)))
        }

        private mutating func suspenseFallback(certainFirst: Bool) -> [Desc] {
            let throwing = certainFirst && !sharesCache
            return (0..<random.weighted([(1, 0), (4, 1), (2, 2), (1, 3)])).map { _ in
                budget -= 1
                enum Kind { case text, element, throwing, suspending }
                let kind: Kind =
                    throwing
                    ? random.weighted([(4, .text), (1, .element), (2, .throwing), (2, .suspending)])
                    : random.weighted([(4, .text), (1, .element), (2, .suspending)])
                switch kind {
                case .text:
                    return .text("loading \(newID())")
                case .element:
                    return .element(tag: "p", attributes: [], children: [.text("loading \(newID())")])
                case .throwing:
                    // Throws as soon as it is evaluated: stored values, then a stored failure or a throw.
                    var keys = (0..<random.int(0...1)).map { _ in distinctKey(.storedValue) }
                    let storedFailure = random.chance(0.4)
                    if storedFailure { keys.append(distinctKey(.storedFailure)) }
                    return .gen(
                        GenSpec(
                            id: newID(),
                            keys: keys,
                            readsInInit: random.chance(0.5),
                            throwsAfterReading: !storedFailure,
                            children: []
                        )
                    )
                case .suspending:
                    return .gen(
                        GenSpec(
                            id: newID(),
                            keys: (0..<random.int(1...2)).map { _ in succeedingKey() },
                            readsInInit: random.chance(0.5),
                            throwsAfterReading: false,
                            children: [.text("still loading \(newID())")]
                        )
                    )
                }
            }
        }

        private mutating func text() -> String {
            random.weighted([(8, "t\(newID())"), (1, "a < b & \"c\" \(newID())"), (1, "")])
        }

        private mutating func tag() -> String {
            ["div", "p", "span", "section", "li", "b"].randomElement(using: &random)!
        }

        private mutating func attributes() -> [Attribute] {
            (0..<random.weighted([(4, 0), (2, 1), (1, 2)])).map { index in
                random.weighted([
                    (2, Attribute("class", "c\(newID())")),
                    (1, Attribute("data-\(index)", "<&\"'>")),
                ])
            }
        }
    }
}
