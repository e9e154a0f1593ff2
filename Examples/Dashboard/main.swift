// The dashboard of Examples/DashboardPage, rendered to stdout.
//
//     swift run Dashboard                    # HTML (on a terminal, redrawn as each card loads)
//     swift run Dashboard --tree             # the resolved structure
//     swift run Dashboard --plain            # the visible text
//     swift run Dashboard --document         # the whole document, rendered once every card loaded
//     swift run Dashboard --stream           # the whole document, streamed chunk by chunk
//     swift run Dashboard --stream --in-order
//     swift run Dashboard --stream --declarative   # swapped in by the browser, with no script
//     swift run Dashboard --stream --declarative-script   # the same, with a script for other browsers
import DashboardPage
import SuspenseKit

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

let usage =
    "usage: Dashboard [--html | --tree | --plain | --document"
    + " | --stream [--in-order | --declarative | --declarative-script]]"
let arguments = Array(CommandLine.arguments.dropFirst())

do {
    switch arguments {
    // On a terminal, each card is redrawn in place as it arrives, with a line naming what is still
    // pending; piped (CI), only the final rendering is written.
    case [], ["--html"]:
        try await LiveTerminal(format: .html(pretty: true)).render(Dashboard())
    case ["--tree"]:
        try await LiveTerminal(format: .tree).render(Dashboard())
    case ["--plain"]:
        try await LiveTerminal(format: .plain).render(Dashboard())
    case ["--document"]:
        print(try await render(DashboardDocument(), as: .html))
    case ["--stream"], ["--stream", "--in-order"], ["--stream", "--declarative"],
        ["--stream", "--declarative-script"]:
        let options =
            switch arguments.last {
            case "--in-order": StreamOptions(order: .inOrder)
            case "--declarative": StreamOptions(swap: .declarative)
            case "--declarative-script": StreamOptions(swap: .declarativeWithScript)
            default: StreamOptions()
            }
        for try await chunk in try await renderStream(DashboardDocument(), stream: options) {
            // Each chunk as it comes, on its own line, flushed: a pipe sees the stream arrive.
            print(chunk)
            fflush(nil)
        }
    default:
        print("\(usage)  (unknown arguments: \(arguments.joined(separator: " ")))")
        exit(2)
    }
} catch {
    print("error: \(error)")
    exit(1)
}
