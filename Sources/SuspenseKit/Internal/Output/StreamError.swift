/// Errors of the stream itself, which mean a defect in SuspenseKit rather than in the page.
enum StreamError: Error, CustomStringConvertible {
    case regionOutsideBoundariesChanged
    case sentPrefixChanged

    var description: String {
        switch self {
        case .regionOutsideBoundariesChanged:
            return "a region outside every boundary changed after the shell was sent (a SuspenseKit defect)"
        case .sentPrefixChanged:
            return "in-order streaming: a part of the document already sent may still change (a SuspenseKit defect)"
        }
    }
}
