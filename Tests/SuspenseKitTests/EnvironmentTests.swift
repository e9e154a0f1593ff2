import Testing

@testable import SuspenseKit

private struct LocaleKey: EnvironmentKey {
    static let defaultValue = "en"
}

private struct ThemeKey: EnvironmentKey {
    static let defaultValue = "light"
}

extension EnvironmentValues {
    fileprivate var locale: String {
        get { self[LocaleKey.self] }
        set { self[LocaleKey.self] = newValue }
    }

    fileprivate var theme: String {
        get { self[ThemeKey.self] }
        set { self[ThemeKey.self] = newValue }
    }
}

/// Shows the locale and theme of the place it was made in, one paragraph per probe.
private struct Probe: Component {
    @Environment(\.locale) var locale
    @Environment(\.theme) var theme
    let label: String

    init(_ label: String) {
        self.label = label
    }

    var body: some Component {
        Element("p") { Text("\(label): \(locale)/\(theme)") }
    }
}

/// A user component between a subtree and its probes.
private struct Section<Content: Component>: Component {
    let content: Content

    init(@ComponentBuilder content: () throws -> Content) rethrows {
        self.content = try content()
    }

    var body: some Component {
        Element("section") { content }
    }
}

/// Reads the locale in its initializer, logs it, then suspends on `key` (stubbed by the tests, so
/// that it always suspends first and is evaluated again once the result is applied).
private struct Localized: Component {
    @Environment(\.locale) var locale
    let value: String

    init(_ key: String, log: Log) throws {
        @Environment(\.locale) var locale
        log.append(locale)
        value = try resolveValue(key: key) { "never run: stubbed" }
    }

    var body: some Component {
        Element("p") { Text("\(locale): \(value)") }
    }
}

/// Suspends in its body, whose children are made again in the component's place.
private struct SuspendsInBody: Component {
    let key: String

    var body: some Component {
        get throws {
            let value: String = try resolveValue(key: key) { "never run: stubbed" }
            return Probe(value)
        }
    }
}

@Suite struct EnvironmentTests {
    @Test func aValueSetOnASubtreeReachesEveryDescendant() async throws {
        let cache = QueryCache()
        cache.stub(.value("loaded"), for: "late")
        let page = Section {
            Probe("section")
            Element("div") {
                Element("span") { Probe("element") }
            }
            ForEach(0..<2) { index in Probe("item \(index)") }
            Group { Section { Probe("group") } }
            ErrorBoundary {
                Suspense {
                    Probe("suspense")
                    try Localized("late", log: Log())
                } fallback: {
                    Probe("fallback")
                }
            } fallback: { _ in
                Text("never")
            }
        }
        .environment(\.locale, "fr")
        let frames = try await resolveFrames(page, cache: cache)
        #expect(frames.count == 2)
        #expect(
            visibleLines(try frames.first?.node.rendered(as: .plain))
                == visibleLines(
                    """
                    section: fr/light
                    element: fr/light
                    item 0: fr/light
                    item 1: fr/light
                    group: fr/light
                    fallback: fr/light
                    """))
        #expect(
            visibleLines(try frames.last?.node.rendered(as: .plain))
                == visibleLines(
                    """
                    section: fr/light
                    element: fr/light
                    item 0: fr/light
                    item 1: fr/light
                    group: fr/light
                    suspense: fr/light
                    fr: loaded
                    """))
    }

    @Test func aValueDoesNotReachOutsideItsSubtree() async throws {
        let page = Section {
            Probe("before")
            Group { Probe("inside") }.environment(\.locale, "fr")
            Probe("after")
            Suspense {
                Probe("content")
            }
            .environment(\.locale, "de")
            Probe("last")
        }
        #expect(
            visibleLines(try await render(page, as: .plain))
                == visibleLines(
                    """
                    before: en/light
                    inside: fr/light
                    after: en/light
                    content: de/light
                    last: en/light
                    """))
    }

    @Test func nestedValuesOverrideOuterOnesForTheirSubtreeOnly() async throws {
        let page = Section {
            Probe("outer")
            Section {
                Probe("inner")
                Group { Probe("innermost") }.environment(\.theme, "contrast")
            }
            .environment(\.locale, "de")
            Probe("outer again")
        }
        .environment(\.locale, "fr")
        .environment(\.theme, "dark")
        #expect(
            visibleLines(try await render(page, as: .plain))
                == visibleLines(
                    """
                    outer: fr/dark
                    inner: de/dark
                    innermost: de/contrast
                    outer again: fr/dark
                    """))
    }

    @Test func aKeyNeverSetReadsItsDefault() async throws {
        // The root is made outside any render; its children are made in the render.
        #expect(try await render(Section { Probe("child") }, as: .plain) == "child: en/light")
        #expect(try await render(Probe("root"), as: .plain) == "root: en/light")
        var values = EnvironmentValues()
        #expect(values.locale == "en")
        values.locale = "fr"
        #expect(values.locale == "fr" && values.theme == "light")
        #expect(EnvironmentValues().locale == "en")
    }

    @Test func aValueIsReadableInAnInitializerAndInABody() async throws {
        struct Greeting: Component {
            @Environment(\.locale) var locale
            let greeting: String
            init() {
                @Environment(\.locale) var initLocale
                greeting = initLocale == "fr" ? "Bonjour" : "Hello"
            }
            var body: some Component {
                Element("p") { Text("\(greeting) (\(locale))") }
            }
        }
        let page = Section {
            Greeting()
            Group { Greeting() }.environment(\.locale, "fr")
        }
        #expect(try await render(page, as: .plain) == "Hello (en)\nBonjour (fr)")
    }

    @Test func theComponentAValueIsSetOnWasMadeInTheEnvironmentOutside() async throws {
        // Documented: `@Environment` is read when a component is made, and `.environment` is
        // applied to a component already made; its content (the body's children) sees the value.
        let page = Section {
            Probe("modified").environment(\.locale, "fr")
            Section { Probe("child") }.environment(\.locale, "fr")
        }
        #expect(visibleLines(try await render(page, as: .plain)) == ["modified: en/light", "child: fr/light"])
    }

    @Test func aComponentEvaluatedAgainAfterSuspendingSeesTheEnvironmentOfItsPlace() async throws {
        // Three places wait on one key; the render applies its result from its root, where the
        // environment is the default, and evaluates each again in its own place.
        let cache = QueryCache()
        cache.stub(.value("loaded"), for: "shared")
        cache.stub(.value("body loaded"), for: "body")
        let log = Log()
        let page = Suspense {
            Group { try Localized("shared", log: log) }.environment(\.locale, "fr")
            Group { try Localized("shared", log: log) }.environment(\.locale, "de")
            try Localized("shared", log: log)
            Group { SuspendsInBody(key: "body") }.environment(\.theme, "dark")
        }
        #expect(
            try await render(page, as: .plain, cache: cache) == """
                fr: loaded
                de: loaded
                en: loaded
                body loaded: en/dark
                """)
        // Made once in the pass, once again when the result was applied.
        #expect(log.all == ["fr", "de", "en", "fr", "de", "en"])
    }

    @Test func aQueryClosureReadsAValueCapturedFromTheEnvironment() async throws {
        struct Greeting: Component {
            let text: String
            init(seen: Log) throws {
                @Environment(\.locale) var locale
                @Environment(\.self) var environment
                text = try resolveValue(key: "greeting/\(locale)") { [locale, environment] in
                    // On a task of the query runner, long after the component was made.
                    await Task.yield()
                    seen.append("\(locale) \(environment.theme)")
                    return locale == "fr" ? "Bonjour" : "Hello"
                }
            }
            var body: some Component { Element("p") { Text(text) } }
        }
        let seen = Log()
        let page = Suspense {
            Group { try Greeting(seen: seen) }.environment(\.locale, "fr")
            try Greeting(seen: seen)
        }
        .environment(\.theme, "dark")
        #expect(try await render(page, as: .plain) == "Bonjour\nHello")
        #expect(Set(seen.all) == ["fr dark", "en dark"])
        #expect(seen.all.count == 2)
    }

    @Test func aSuspenseFallbackSeesTheEnvironmentOfItsPlace() async throws {
        // First pass: the fallback is evaluated after content that set another value.
        let cache = QueryCache()
        cache.stub(.value("loaded"), for: "late")
        let first = Section {
            Suspense {
                Group { try Localized("late", log: Log()) }.environment(\.locale, "de")
            } fallback: {
                Probe("fallback")
            }
        }
        .environment(\.locale, "fr")
        let frames = try await resolveFrames(first, cache: cache)
        #expect(try frames.map { try $0.node.rendered(as: .plain) } == ["fallback: fr/light", "de: loaded"])

        // Shown again when a query's result is applied: the content of the resolved outer
        // Suspense suspends again in an ErrorBoundary's fallback, from the render's root.
        let again = QueryCache()
        again.stub(.failure(TestFailure("failed")), for: "fails")
        again.stub(.value("recovered"), for: "recovery")
        let page = Section {
            Suspense {
                ErrorBoundary {
                    Suspense {
                        try Localized("fails", log: Log())
                    } fallback: {
                        Text("inner…")
                    }
                } fallback: { _ in
                    try Localized("recovery", log: Log())
                }
                .environment(\.locale, "de")
            } fallback: {
                Probe("outer fallback")
            }
        }
        .environment(\.locale, "fr")
        let shown = try await resolveFrames(page, cache: again).map { try $0.node.rendered(as: .plain) }
        #expect(shown == ["inner…", "outer fallback: fr/light", "de: recovered"])
    }

    @Test func anErrorBoundaryFallbackSeesTheEnvironmentOfItsPlace() async throws {
        let cache = QueryCache()
        cache.stub(.failure(TestFailure("failed")), for: "fails")
        let page = Section {
            // Caught in the pass, thrown inside a subtree with another value.
            ErrorBoundary {
                Group { try Thrower("thrown") }.environment(\.locale, "de")
            } fallback: { _ in
                Probe("caught at once")
            }
            // Caught when the query's failure is applied, in the slot's place (another value).
            ErrorBoundary {
                Suspense {
                    Group { try Localized("fails", log: Log()) }.environment(\.locale, "de")
                }
            } fallback: { _ in
                Probe("caught later")
            }
            Probe("after")
        }
        .environment(\.locale, "fr")
        #expect(
            try await render(page, as: .plain, cache: cache) == """
                caught at once: fr/light
                caught later: fr/light
                after: fr/light
                """)
    }

    @Test func typedSuspenseContentEvaluatedWithItsValueSeesItsEnvironment() async throws {
        struct Counted: Component {
            @Environment(\.locale) var locale
            let value: Int
            init(_ value: Int?) throws {
                self.value = try resolveValue(value) {
                    await Task.yield()
                    return 42
                }
            }
            var body: some Component { Element("p") { Text("\(locale): \(value)") } }
        }
        let page = Section {
            Suspense { (value: Int?) in
                try Counted(value)
            } fallback: {
                Probe("loading")
            }
            .environment(\.locale, "fr")
        }
        .environment(\.theme, "dark")
        let frames = try await resolveFrames(page)
        #expect(try frames.map { try $0.node.rendered(as: .plain) } == ["loading: fr/dark", "fr: 42"])
    }

    @MainActor @Test func aRenderOnTheMainActorSeesTheEnvironmentOfEachPlace() async throws {
        let cache = QueryCache()
        cache.stub(.value("loaded"), for: "late")
        let log = Log()
        let page = Suspense {
            Group { try Localized("late", log: log) }.environment(\.locale, "fr")
            Probe("static")
        }
        .environment(\.theme, "dark")
        #expect(try await render(page, as: .plain, cache: cache) == "fr: loaded\nstatic: en/dark")
        #expect(log.all == ["fr", "fr"])
    }

    @Test func valuesNoRecordCapturedAreNotKept() async throws {
        let cache = QueryCache()
        cache.stub(.value("loaded"), for: "late")
        let page = Section {
            ForEach(0..<1_000) { index in
                Group { Probe("item") }.environment(\.theme, "item \(index)")
            }
            Suspense {
                Group { try Localized("late", log: Log()) }.environment(\.locale, "fr")
            }
            Probe("last")
        }
        .environment(\.locale, "de")
        let resolver = _Resolver(cache: cache, options: RenderOptions())
        resolver.evaluateRoot { page }
        // The defaults, the Suspense's place ("de"), and the suspended slot's place ("fr").
        #expect(resolver.records.environments.count == 3)
        let output = try await render(page, as: .plain, cache: cache)
        #expect(output.hasPrefix("item: de/item 0\nitem: de/item 1\n"))
        #expect(output.hasSuffix("item: de/item 999\nfr: loaded\nlast: de/light"))
    }

    @Test func aDeferredSubtreeSeesTheEnvironmentOfItsPlace() async throws {
        /// `levels` nested components: far more than a pass keeps on the stack, so the subtrees
        /// below are deferred and evaluated from the pass loop, each in its own place.
        struct Chain: Component {
            let levels: Int
            var body: some Component {
                Element("div") {
                    if levels > 1 {
                        Chain(levels: levels - 1)
                    } else {
                        Bottom()
                    }
                }
            }
        }
        /// Shows the locale of its place.
        struct Bottom: Component {
            @Environment(\.locale) var locale
            var body: some Component { Text("\(locale) at the bottom") }
        }
        let page = Section { Chain(levels: 5_000) }.environment(\.locale, "fr")
        var deepest = try await resolve(page)
        while let child = deepest.children.first { deepest = child }
        #expect(deepest.kind == .text("fr at the bottom"))
    }

    @Test func theModifierLeavesNoTraceInTheTreeNorInPaths() async throws {
        /// The same page with or without `.environment` on each piece: the same tree, the same
        /// boundary ids.
        struct Page: Component {
            let modified: Bool
            var body: some Component {
                Element("main") {
                    if modified {
                        Suspense {
                            Marker().environment(\.locale, "fr")
                            Section { Marker() }.environment(\.locale, "fr")
                        }
                        .environment(\.locale, "fr")
                        ErrorBoundary {
                            try Failing("fails", message: "failed").environment(\.locale, "fr")
                        } fallback: { error in
                            Text("caught: \(error)").environment(\.locale, "fr")
                        }
                        .environment(\.locale, "fr")
                    } else {
                        Suspense {
                            Marker()
                            Section { Marker() }
                        }
                        ErrorBoundary {
                            try Failing("fails", message: "failed")
                        } fallback: { error in
                            Text("caught: \(error)")
                        }
                    }
                }
            }
        }
        let expected = """
            Page
            └─ <main>
               ├─ Suspense #0.0 [resolved]
               │  ├─ Marker
               │  │  └─ "marker"
               │  └─ Section
               │     └─ <section>
               │        └─ Marker
               │           └─ "marker"
               └─ ErrorBoundary #0.1 [caught: failed]
                  └─ "caught: failed"
            """
        let plain = try await tree(Page(modified: false))
        let modified = try await tree(Page(modified: true))
        #expect(plain == expected)
        #expect(modified == expected)

        /// Errors thrown when a modified component is made, and applied to it later: no
        /// boundary catches them, so the render fails with their paths.
        struct Failures: Component {
            let late: Bool
            var body: some Component {
                Suspense {
                    if late {
                        try Failing("fails", message: "failed").environment(\.locale, "fr")
                    } else {
                        try Thrower("thrown").environment(\.locale, "fr")
                    }
                }
                .environment(\.locale, "de")
            }
        }
        let atOnce = try await renderError(Failures(late: false))
        let late = try await renderError(Failures(late: true))
        #expect(atOnce.path == ["Failures", "Suspense", "Thrower"])
        #expect(late.path == ["Failures", "Suspense", "Failing"])
    }
}

/// Shows a constant text, whatever its environment.
private struct Marker: Component {
    var body: some Component { Text("marker") }
}

/// The lines of `.plain` text that show something: the environment tests pin values, not the
/// blank lines `.plain` sets between blocks.
private func visibleLines(_ text: String?) -> [String] {
    (text ?? "").split(separator: "\n").map(String.init).filter { !$0.isEmpty }
}
