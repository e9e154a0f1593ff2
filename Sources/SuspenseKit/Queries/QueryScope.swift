/// Whose data a key read with ``resolveValue(key:scope:tags:query:)`` holds, and so who may read
/// it from a cache's shared tier (``QueryStore``).
///
/// A shared tier answers every process and every user with what one of them loaded. Data that is
/// the same for every user (a product, an article, exchange rates) is `.shared`; data of one user
/// (their profile, their cart, a page shown with their permissions) is `.user(id)`, which puts the
/// user in the key, so that another user's read can never find it. A key read without a scope
/// (``resolveValue(key:query:)``) never leaves the process.
public struct QueryScope: Sendable, Hashable {
    private let user: String?

    /// Data identical for every user: the key is used as it is.
    public static let shared = QueryScope(user: nil)

    /// Data of the user `id`: the key is prefixed with `user:<id>:` (a `%` or `:` in the id
    /// escaped), so that each user's reads have keys of their own.
    public static func user(_ id: String) -> QueryScope {
        QueryScope(user: id)
    }

    /// The key under which `key` is cached in this scope, in process and in the store: what
    /// ``QueryCache/removeValue(for:)``, ``QueryCache/invalidate(prefix:)`` and stubs take.
    /// `QueryScope.user("42").key("")` is the prefix of every key of user 42.
    public func key(_ key: String) -> String {
        guard let user else { return key }
        var escaped = ""
        for character in user {
            switch character {
            case "%": escaped += "%25"
            case ":": escaped += "%3A"
            default: escaped.append(character)
            }
        }
        return "user:" + escaped + ":" + key
    }
}
