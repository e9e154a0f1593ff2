// The news feed of NewsFeed.swift, rendered to stdout.
//
//     swift run NewsFeed                  # plain text (on a terminal, redrawn as sections load)
//     swift run NewsFeed --tree           # the resolved structure
//     swift run NewsFeed --html
//     swift run NewsFeed --locale fr      # in French
import SuspenseKit

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

let usage = "usage: NewsFeed [--plain | --tree | --html] [--locale en|fr]"
var format = RenderFormat.plain
var locale = "en"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--plain": format = .plain
    case "--tree": format = .tree
    case "--html": format = .html(pretty: true)
    case "--locale":
        guard let value = arguments.popFirst(), ["en", "fr"].contains(value) else {
            print("\(usage)  (--locale takes en or fr)")
            exit(2)
        }
        locale = value
    default:
        print("\(usage)  (unknown argument: \(argument))")
        exit(2)
    }
}

do {
    try await LiveTerminal(format: format).render(LocalizedNewsFeed(locale: locale, service: NewsService()))
} catch {
    print("error: \(error)")
    exit(1)
}
