/// A Content Security Policy's directives, parsed just enough to add a nonce to them and to tell
/// whether they let the stream's inline scripts run.
struct CSPDirectives {
    /// Each directive: its name in lower case and its sources, as written.
    private(set) var directives: [(name: String, sources: [String])]

    init(_ policy: String) {
        directives = policy.split(separator: ";").compactMap { directive in
            let tokens = directive.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            guard let name = tokens.first else { return nil }
            return (name.lowercased(), tokens.dropFirst().map(String.init))
        }
    }

    /// The policy with `'nonce-<nonce>'` in its `script-src`, which is added (with the sources of
    /// `default-src`, which it would otherwise stop applying to scripts) when there is none. A
    /// `script-src-elem` gets it as well, since it decides for `<script>` elements.
    func addingNonce(_ nonce: String) -> String {
        let source = "'nonce-\(nonce)'"
        var directives = directives
        var hasScriptSource = false
        for index in directives.indices where ["script-src", "script-src-elem"].contains(directives[index].name) {
            hasScriptSource = hasScriptSource || directives[index].name == "script-src"
            directives[index].sources.removeAll { Self.isNone($0) }
            directives[index].sources.append(source)
        }
        if !hasScriptSource {
            let inherited = directives.first { $0.name == "default-src" }?.sources.filter { !Self.isNone($0) } ?? []
            directives.insert(("script-src", inherited + [source]), at: 0)
        }
        return directives.map { ([$0.name] + $0.sources).joined(separator: " ") }.joined(separator: "; ")
    }

    /// Whether an inline `<script>` with `nonce` (or none) may run under this policy: the
    /// directive that decides for script elements (`script-src-elem`, else `script-src`, else
    /// `default-src`) is absent, lists the nonce, or allows `'unsafe-inline'` without a nonce or
    /// hash that would make the browser ignore it.
    func allowsInlineScripts(nonce: String?) -> Bool {
        let deciding = ["script-src-elem", "script-src", "default-src"].lazy.compactMap { name in
            self.directives.first { $0.name == name }
        }.first
        guard let sources = deciding?.sources else { return true }
        if let nonce, sources.contains("'nonce-\(nonce)'") { return true }
        let lowered = sources.map { $0.lowercased() }
        let disablesUnsafeInline = lowered.contains {
            $0.hasPrefix("'nonce-") || $0.hasPrefix("'sha256-") || $0.hasPrefix("'sha384-")
                || $0.hasPrefix("'sha512-") || $0 == "'strict-dynamic'"
        }
        return lowered.contains("'unsafe-inline'") && !disablesUnsafeInline
    }

    private static func isNone(_ source: String) -> Bool {
        source.lowercased() == "'none'"
    }
}
