/// The response declarations a served page reveals after its shell (`declaredAfterShell`), on
/// their way to the log: the render reports them as it runs, which may be before the adapter
/// hands its hooks to `writeBody` (the render runs ahead of its reader), so they wait here until
/// then.
final class LateDeclarations: Sendable {
    private struct State {
        var waiting: [ResponseDeclaration] = []
        var log: (@Sendable (ResponseDeclaration) -> Void)?
    }

    private let state = Locked(State())

    /// Logs `declaration` now, or once `attach` gives the log.
    func report(_ declaration: ResponseDeclaration) {
        let log = state.withLock { state in
            if state.log == nil { state.waiting.append(declaration) }
            return state.log
        }
        log?(declaration)
    }

    /// Logs what waited, then every later report, through `log`.
    func attach(_ log: @escaping @Sendable (ResponseDeclaration) -> Void) {
        let waiting = state.withLock { state in
            state.log = log
            defer { state.waiting = [] }
            return state.waiting
        }
        for declaration in waiting { log(declaration) }
    }

    /// The log's entry for a declaration revealed after the shell.
    static func entry(_ declaration: ResponseDeclaration) -> ServingLogEntry {
        let what: String
        switch declaration {
        case .status(let status): what = "the status \(status.code)"
        case .header(let name, let value): what = "the header \(name): \(value)"
        case .redirect(let location, let status): what = "a redirect (\(status.code)) to \(location)"
        }
        return ServingLogEntry(
            level: .warning,
            message: "declaredAfterShell: the page declared \(what) after its shell was sent, so it cannot "
                + "change the response"
                + (declaration.isRedirect ? " (the page was sent a refresh to it instead)" : "")
                + "; declare it outside every Suspense that is still pending when the shell is ready")
    }
}

extension ResponseDeclaration {
    fileprivate var isRedirect: Bool {
        if case .redirect = self { return true }
        return false
    }
}
