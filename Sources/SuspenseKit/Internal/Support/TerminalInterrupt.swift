#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Leaves a terminal clean when Ctrl-C (SIGINT) ends the process while ``LiveTerminal`` draws:
/// the status line cleared and the cursor shown again, then the process ends as SIGINT ends it,
/// so that a shell sees it was interrupted.
///
/// Invariant: the handler does only what is safe in a signal handler: `write(2)` of bytes that
/// exist before any signal (a string literal in the binary, never a Swift `String`, which may
/// allocate), then restoring the default action and raising the signal again, which ends the
/// process once the handler returns (the signal is blocked while it runs). The bytes are the same
/// whatever is drawn: ``LiveDrawing`` keeps the cursor on its status row. The handler is
/// installed only over the default action: a program that handles SIGINT itself keeps its own.
enum TerminalInterrupt {
    /// Clears the row the cursor is on (the status line) and shows the cursor.
    static let cleanup = "\r\u{1B}[2K\u{1B}[?25h"

    /// How many live terminals draw at once, and whether the handler is ours.
    private static let installs = Locked((count: 0, ours: false))

    /// Installs the handler unless another handles SIGINT already; undo with ``uninstall()``.
    static func install() {
        installs.withLock { installs in
            installs.count += 1
            guard installs.count == 1 else { return }
            var current = sigaction()
            guard sigaction(SIGINT, nil, &current) == 0, isDefault(current) else { return }
            var action = sigaction()
            setHandler(&action) { _ in TerminalInterrupt.interrupted() }
            sigemptyset(&action.sa_mask)
            installs.ours = sigaction(SIGINT, &action, nil) == 0
        }
    }

    /// Undoes one ``install()``; the last restores the default action if the handler was ours.
    static func uninstall() {
        installs.withLock { installs in
            installs.count -= 1
            guard installs.count == 0, installs.ours else { return }
            installs.ours = false
            var action = sigaction()
            setHandler(&action, nil)
            sigemptyset(&action.sa_mask)
            sigaction(SIGINT, &action, nil)
        }
    }

    /// What the handler does: cleans up, then ends the process by SIGINT.
    private static func interrupted() {
        writeCleanup(to: STDOUT_FILENO)
        signal(SIGINT, SIG_DFL)
        raise(SIGINT)
    }

    /// Writes ``cleanup`` to `descriptor`, from a literal: safe in a signal handler.
    static func writeCleanup(to descriptor: Int32) {
        let bytes: StaticString = "\r\u{1B}[2K\u{1B}[?25h"
        var offset = 0
        while offset < bytes.utf8CodeUnitCount {
            let written = write(descriptor, bytes.utf8Start + offset, bytes.utf8CodeUnitCount - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    private static func isDefault(_ action: sigaction) -> Bool {
        #if canImport(Darwin)
            action.__sigaction_u.__sa_handler == nil
        #elseif canImport(Musl)
            action.__sa_handler.sa_handler == nil
        #else
            action.__sigaction_handler.sa_handler == nil
        #endif
    }

    private static func setHandler(_ action: inout sigaction, _ handler: (@convention(c) (Int32) -> Void)?) {
        #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
        #elseif canImport(Musl)
            action.__sa_handler.sa_handler = handler
        #else
            action.__sigaction_handler.sa_handler = handler
        #endif
    }
}
