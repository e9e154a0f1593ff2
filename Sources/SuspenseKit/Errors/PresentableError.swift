/// An error that describes itself for presentation: a title, a message and, optionally, what to
/// do about it.
///
/// The default ``ErrorBoundary`` fallback (``ErrorMessage``) shows `title: message` followed by
/// the recovery suggestion, in HTML too, where any other error shows only a generic message; the
/// `.tree` format's `ErrorBoundary [caught: …]` line shows `title: message`; a ``RenderError``'s
/// description shows all three. Its own `description` is `title: message`, so that
/// `Text("Could not load: \(error)")` in a custom fallback reads the same, whether `error` is the
/// concrete type or `any Error`; a type that defines `description` itself keeps its own.
///
/// ```swift
/// struct Offline: PresentableError {
///     var title: String { "Offline" }
///     var message: String { "The feed cannot be reached." }
///     var recoverySuggestion: String? { "Check your connection and try again." }
/// }
/// ```
public protocol PresentableError: Error, CustomStringConvertible {
    /// A short name for what went wrong, such as `Offline`.
    var title: String { get }
    /// What went wrong, in a sentence.
    var message: String { get }
    /// What the reader can do about it, in a sentence; `nil` (the default) when there is nothing.
    var recoverySuggestion: String? { get }
}

extension PresentableError {
    /// No suggestion.
    public var recoverySuggestion: String? { nil }

    /// `title: message`, leaving out an empty part. Interpolation and `String(describing:)` use
    /// it, for the concrete type and for `any Error` alike, since the protocol refines
    /// `CustomStringConvertible`.
    public var description: String {
        titleAndMessage(title, message)
    }
}

/// `title: message`, leaving out an empty part.
private func titleAndMessage(_ title: String, _ message: String) -> String {
    [title, message].filter { !$0.isEmpty }.joined(separator: ": ")
}

/// How SuspenseKit shows an error: a ``PresentableError`` as `title: message`, followed, when
/// `suggestion` is true, by its recovery suggestion as a sentence of its own; any other error as
/// `String(describing:)`.
func describeError(_ error: any Error, suggestion: Bool) -> String {
    guard let presentable = error as? any PresentableError else { return String(describing: error) }
    var text = titleAndMessage(presentable.title, presentable.message)
    if suggestion, let advice = presentable.recoverySuggestion, !advice.isEmpty {
        if text.isEmpty {
            text = advice
        } else {
            // The suggestion is a sentence of its own: the message gets the full stop it lacks.
            let endsSentence = text.last.map { ".!?…".contains($0) } ?? false
            text += (endsSentence ? " " : ". ") + advice
        }
    }
    return text.isEmpty ? String(describing: error) : text
}
