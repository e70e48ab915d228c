import Peripherals

@testable import Bridge

/// Every family's driver with default options, as the tests use them.
enum FamilyDrivers {
    static let all: [any FamilyDriver] = [
        BeltDriver(), Activ5Driver(options: Activ5Options()), CPRBandDriver(options: CPRBandOptions()),
        GripDriver(profile: .placeholder),
    ]

    static func of(_ family: DeviceFamily) -> any FamilyDriver { all.first { $0.family == family }! }
}
