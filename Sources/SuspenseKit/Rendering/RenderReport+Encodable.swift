// The report's JSON: times in milliseconds on the render's clock (`…Milliseconds` keys), ids and
// causes as the strings the table shows, absent values left out.

extension RenderReport: Encodable {
    private enum CodingKeys: String, CodingKey {
        case shellMilliseconds, finishedMilliseconds, deadlinePassed, boundaries, queries, diagnostics, error
    }

    /// Encodes the report: times in milliseconds (`shellMilliseconds`, `startedMilliseconds`, …),
    /// boundary ids and causes as their descriptions, values that are absent left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(shellAt?.milliseconds, forKey: .shellMilliseconds)
        try container.encode(finishedAt.milliseconds, forKey: .finishedMilliseconds)
        try container.encode(deadlinePassed, forKey: .deadlinePassed)
        try container.encode(boundaries, forKey: .boundaries)
        try container.encode(queries, forKey: .queries)
        try container.encode(diagnostics, forKey: .diagnostics)
        try container.encodeIfPresent(error, forKey: .error)
    }
}

extension RenderReport.CacheOutcome: Encodable {}

extension RenderReport.Cause: Encodable {
    /// Encodes the cause as its description, such as `result of user/1`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension RenderReport.Query: Encodable {
    private enum CodingKeys: String, CodingKey {
        case key, outcome, cause, startedMilliseconds, finishedMilliseconds, error, cancelled
    }

    /// Encodes the run with its times in milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(cause, forKey: .cause)
        try container.encode(startedAt.milliseconds, forKey: .startedMilliseconds)
        try container.encodeIfPresent(finishedAt?.milliseconds, forKey: .finishedMilliseconds)
        try container.encodeIfPresent(error, forKey: .error)
        if cancelled { try container.encode(true, forKey: .cancelled) }
    }
}

extension RenderReport.BoundaryKind: Encodable {}

extension RenderReport.Boundary: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, kind, path, fallbackMilliseconds, revealedMilliseconds, waitedOn, revealedBy, resuspensions
        case retries, timedOut, errors
    }

    /// Encodes the boundary with its id as its description and its times in milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.description, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(fallbackAt?.milliseconds, forKey: .fallbackMilliseconds)
        try container.encodeIfPresent(revealedAt?.milliseconds, forKey: .revealedMilliseconds)
        try container.encode(waitedOn, forKey: .waitedOn)
        try container.encodeIfPresent(revealedBy, forKey: .revealedBy)
        if resuspensions > 0 { try container.encode(resuspensions, forKey: .resuspensions) }
        if retries > 0 { try container.encode(retries, forKey: .retries) }
        if timedOut { try container.encode(true, forKey: .timedOut) }
        if !errors.isEmpty { try container.encode(errors, forKey: .errors) }
    }
}
