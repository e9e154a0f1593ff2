extension StreamedPage {
    /// The head of a page whose shell is ready, and what to warn of. Decided here, once, at the
    /// moment the shell is: what the shell's tree `declared` (``ResponseHead``) goes over
    /// `serving`'s status and headers (a field that may repeat is added, any other replaced), and
    /// a redirect's status and `Location` over both; `Content-Type` stays HTML.
    static func head(
        serving: ServingOptions,
        stream: StreamOptions,
        serverTiming: String?,
        declared: ResponseHead = ResponseHead()
    ) -> (PageHead, [ServingLogEntry]) {
        var headers = serving.headers
        for header in declared.headers.fields {
            if ResponseHead.mayRepeat(header.name) {
                headers.add(name: header.name, value: header.value)
            } else {
                headers.replace(name: header.name, value: header.value)
            }
        }
        headers.replace(name: "Content-Type", value: contentType)
        var warnings: [ServingLogEntry] = []
        if writesScripts(stream) {
            for policy in headers.values(for: "Content-Security-Policy")
            where !CSPDirectives(policy).allowsInlineScripts(nonce: stream.nonce) {
                warnings.append(blockedScripts(policy: policy, serving: serving, stream: stream))
            }
        }
        if let policy = serving.contentSecurityPolicy, let nonce = stream.nonce {
            headers.add(name: "Content-Security-Policy", value: policy.header(nonce: nonce))
        }
        if let serverTiming {
            headers.add(name: "Server-Timing", value: serverTiming)
        }
        return (PageHead(status: declared.status?.code ?? serving.status, headers: headers), warnings)
    }

    /// The body of a redirect declared in the shell: a link to its location, for a client that
    /// does not follow it (the location was checked when declared).
    static func redirectBody(to location: String) -> String {
        var html = Array("<!DOCTYPE html><html><body><p>Redirecting to <a href=\"".utf8)
        HTMLEscaping.appendAttribute(location, to: &html)
        html += "\">".utf8
        HTMLEscaping.append(location, to: &html, quotes: false)
        html += "</a>.</p></body></html>".utf8
        return String(decoding: html, as: UTF8.self)
    }

    /// Whether the stream writes inline scripts, which a policy must let run: out of order, it
    /// does unless it swaps declaratively.
    static func writesScripts(_ stream: StreamOptions) -> Bool {
        stream.order == .outOfOrder && stream.swap != .declarative
    }

    /// The warning for a policy given among the headers that would block the stream's scripts.
    private static func blockedScripts(
        policy: String,
        serving: ServingOptions,
        stream: StreamOptions
    ) -> ServingLogEntry {
        let what =
            "the Content-Security-Policy header \"\(policy)\" blocks the stream's inline scripts, so every "
            + "fallback would stay on the page"
        let fix: String
        if serving.contentSecurityPolicy != nil {
            fix =
                "the browser enforces it beside the policy ServingOptions makes, and it cannot know this "
                + "response's nonce: remove it and give its directives to .nonce(directives:)"
        } else if stream.nonce == nil {
            fix =
                "use ServingOptions(contentSecurityPolicy: .nonce), or .nonce(directives:) with your own "
                + "directives, which makes a nonce per response and puts it on every script and in the "
                + "header; or stream with StreamOptions(swap: .declarative), which writes no script"
        } else {
            fix =
                "add 'nonce-\(stream.nonce ?? "")' (StreamOptions.nonce) to its script-src, or use "
                + "ServingOptions(contentSecurityPolicy: .nonce), which does it for every response"
        }
        return ServingLogEntry(level: .warning, message: what + ": " + fix)
    }
}
