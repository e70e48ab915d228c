import Testing

@testable import Bridge

/// The live page's forms start from these payloads: each must pass its family's own checks.
struct CommandExampleTests {
    static let drivers = FamilyDrivers.all

    @Test(arguments: drivers.flatMap { driver in driver.commandExamples.map { (driver.family, $0) } })
    func everyExamplePassesItsFamilysValidation(_ family: DeviceFamily, _ example: CommandExample) throws {
        let driver = try #require(Self.drivers.first { $0.family == family })
        _ = try driver.parse(command: example.command, payload: CommandPayload(bytes: Array(example.payload.utf8)))
    }

    @Test func everyFamilyWithCommandsListsEachOnceAndTheGripNone() {
        for driver in Self.drivers {
            let names = driver.commandExamples.map(\.command)
            #expect(Set(names).count == names.count, "\(driver.family)")
            #expect(names.isEmpty == (driver.family == .grip), "\(driver.family)")
        }
        #expect(Set(BeltCommandParser.commandNames).isSuperset(of: ["mode", "vibrate", "navigation", "notify"]))
    }
}
