@testable import SuspenseKit

extension ReliabilityHarness {
    /// Builds a random case from a seed: trees of up to a few hundred nodes mixing text,
    /// elements, generated components, nested Suspense and ErrorBoundary.
    ///
    /// One rule keeps the reference model exact: a `Suspense` fallback that can throw or suspend
    /// is generated only where the Suspense is certainly evaluated in the render's first pass
    /// (no component above it waits on a query), because there every keyed read is a cache miss
    /// unless the key was stored before the render, so whether the fallback is evaluated at all
    /// does not depend on which query finished first. Elsewhere fallbacks can only suspend on
    /// queries that succeed (see `ReliabilityModel.isSafe`).
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

        static func makeCase(seed: UInt64) -> Case {
            var generator = Generator(seed: seed)
            let root = generator.list(depth: 0, certainFirst: true, count: nil)
            let order: RenderOptions.DeliveryOrder = generator.random.chance(0.5) ? .completion : .discovery
            return Case(seed: seed, root: root, outcomes: generator.outcomes, deliveryOrder: order)
        }

        private init(seed: UInt64) {
            random = ReliabilityRandom(seed: seed)
            budget = random.weighted([(40, 1...20), (35, 20...80), (25, 80...300)]).randomElement(using: &random)!
            failureRate = Double(random.int(0...25)) / 100
            throwRate = Double(random.int(0...10)) / 100
            maxDepth = random.int(2...14)
            sharedKeys = (0..<random.int(1...6)).map { "s\($0)" }
            for key in sharedKeys {
                outcomes[key] = makeOutcome()
            }
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

        // MARK: Trees

        private mutating func newID() -> Int {
            nextID += 1
            return nextID
        }

        private mutating func list(depth: Int, certainFirst: Bool, count: Int?) -> [Desc] {
            let count = count ?? random.weighted([(2, 0), (5, 1), (5, 2), (4, 3), (2, 4), (1, 6)])
            var result: [Desc] = []
            for _ in 0..<count where budget > 0 {
                result.append(node(depth: depth, certainFirst: certainFirst))
            }
            return result
        }

        private mutating func node(depth: Int, certainFirst: Bool) -> Desc {
            budget -= 1
            let leaf = depth >= maxDepth || budget <= 0
            enum Kind { case text, element, gen, suspense, errorBoundary }
            let kind: Kind =
                leaf
                ? random.weighted([(1, .text), (1, .gen)])
                : random.weighted([(3, .text), (2, .element), (4, .gen), (2, .suspense), (2, .errorBoundary)])
            switch kind {
            case .text:
                return .text(text())
            case .element:
                return .element(
                    tag: tag(), attributes: attributes(),
                    children: list(depth: depth + 1, certainFirst: certainFirst, count: nil))
            case .gen:
                let keys = (0..<random.weighted([(3, 0), (5, 1), (3, 2), (1, 3)])).map { _ in anyKey() }
                let childrenFirst = certainFirst && keys.allSatisfy { outcomes[$0] == .storedValue }
                return .gen(
                    GenSpec(
                        id: newID(),
                        keys: keys,
                        readsInInit: random.chance(0.5),
                        throwsAfterReading: random.chance(throwRate),
                        children: leaf ? [] : list(depth: depth + 1, certainFirst: childrenFirst, count: nil)
                    )
                )
            case .suspense:
                let content = list(depth: depth + 1, certainFirst: certainFirst, count: nil)
                return .suspense(content: content, fallback: suspenseFallback(certainFirst: certainFirst))
            case .errorBoundary:
                let content = list(depth: depth + 1, certainFirst: certainFirst, count: nil)
                let fallback = list(
                    depth: depth + 1, certainFirst: false, count: random.weighted([(4, 0), (3, 1), (1, 2)]))
                return .errorBoundary(content: content, fallback: fallback)
            }
        }

        private mutating func suspenseFallback(certainFirst: Bool) -> [Desc] {
            (0..<random.weighted([(1, 0), (4, 1), (2, 2), (1, 3)])).map { _ in
                budget -= 1
                enum Kind { case text, element, throwing, suspending }
                let kind: Kind =
                    certainFirst
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
