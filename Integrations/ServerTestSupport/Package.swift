// swift-tools-version: 6.0
import PackageDescription

// What the integrations' tests share: a raw HTTP client on POSIX sockets, gated queries, test
// pages and wait helpers (`ServerTestSupport`, on SuspenseKit alone), and a log recorder
// (`ServerTestLogging`, on swift-log, which every Swift server framework already depends on).
// A package of its own, so that each integration's tests depend on it by path and SuspenseKit
// keeps no dependencies.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ServerTestSupport",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ServerTestSupport", targets: ["ServerTestSupport"]),
        .library(name: "ServerTestLogging", targets: ["ServerTestLogging"]),
    ],
    dependencies: [
        .package(name: "SuspenseKit", path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "ServerTestSupport",
            dependencies: [.product(name: "SuspenseKit", package: "SuspenseKit")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ServerTestLogging",
            dependencies: ["ServerTestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
    ]
)
