// swift-tools-version: 6.0
import PackageDescription

// A package of its own, so that SuspenseKit itself keeps no dependencies. It sits one folder below
// Integrations/Vapor because SwiftPM names a root package after its folder, and a root package
// named "vapor" would take the identity of the Vapor dependency.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SuspenseKitVapor",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SuspenseKitVapor", targets: ["SuspenseKitVapor"]),
        .executable(name: "DashboardServer", targets: ["DashboardServer"]),
    ],
    dependencies: [
        .package(name: "SuspenseKit", path: "../../.."),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.0"),
        // The raw HTTP client, gates and test pages the Hummingbird integration's tests use too.
        .package(path: "../../ServerTestSupport"),
    ],
    targets: [
        .target(
            name: "SuspenseKitVapor",
            dependencies: [
                .product(name: "SuspenseKit", package: "SuspenseKit"),
                .product(name: "Vapor", package: "vapor"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DashboardRoutes",
            dependencies: [
                "SuspenseKitVapor",
                .product(name: "DashboardPage", package: "SuspenseKit"),
                .product(name: "Vapor", package: "vapor"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "DashboardServer",
            dependencies: ["DashboardRoutes", .product(name: "Vapor", package: "vapor")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SuspenseKitVaporTests",
            dependencies: [
                "SuspenseKitVapor", "DashboardRoutes",
                .product(name: "DashboardPage", package: "SuspenseKit"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "ServerTestSupport", package: "ServerTestSupport"),
                .product(name: "ServerTestLogging", package: "ServerTestSupport"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
