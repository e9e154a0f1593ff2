import Testing
@testable import SuspenseKit
