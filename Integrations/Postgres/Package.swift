// swift-tools-version: 6.0
import PackageDescription

// A package of its own, so that SuspenseKit itself keeps no dependencies.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SuspenseKitPostgres",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SuspenseKitPostgres", targets: ["SuspenseKitPostgres"])
    ],
    dependencies: [
        .package(name: "SuspenseKit", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        // Already one of postgres-nio's: its connections take a Logger.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "SuspenseKitPostgres",
            dependencies: [
                .product(name: "SuspenseKit", package: "SuspenseKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SuspenseKitPostgresTests",
            dependencies: [
                "SuspenseKitPostgres",
                .product(name: "SuspenseKit", package: "SuspenseKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
