// swift-tools-version: 6.0
import PackageDescription

// A package of its own, so that SuspenseKit itself keeps no dependencies. It sits one folder below
// Integrations/Hummingbird because SwiftPM names a root package after its folder, and a root
// package named "hummingbird" would take the identity of the Hummingbird dependency.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SuspenseKitHummingbird",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SuspenseKitHummingbird", targets: ["SuspenseKitHummingbird"]),
        .executable(name: "DashboardServer", targets: ["DashboardServer"]),
    ],
    dependencies: [
        .package(name: "SuspenseKit", path: "../../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Already one of Hummingbird's: the tests record what the server logs.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The raw HTTP client, gates and test pages the Vapor integration's tests use too.
        .package(path: "../../ServerTestSupport"),
    ],
    targets: [
        .target(
            name: "SuspenseKitHummingbird",
            dependencies: [
                .product(name: "SuspenseKit", package: "SuspenseKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DashboardRoutes",
            dependencies: [
                "SuspenseKitHummingbird",
                .product(name: "DashboardPage", package: "SuspenseKit"),
                // Its TestClock, for `DashboardServer --test-clock`.
                .product(name: "SuspenseTesting", package: "SuspenseKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "DashboardServer",
            dependencies: ["DashboardRoutes", .product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SuspenseKitHummingbirdTests",
            dependencies: [
                "SuspenseKitHummingbird", "DashboardRoutes",
                .product(name: "DashboardPage", package: "SuspenseKit"),
                // Its TestClock: the render's times, exact.
                .product(name: "SuspenseTesting", package: "SuspenseKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServerTestSupport", package: "ServerTestSupport"),
                .product(name: "ServerTestLogging", package: "ServerTestSupport"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
