import Peripherals
import Testing

@testable import Bridge

/// A gateway told that GATT operations may take longer than the default (`bluez.operation_timeout_s`) gives a
/// connection's set-up and a device's answers as many times longer: on a link that slow, the belt's 1 s for a
/// confirmation refused commands the belt had carried out.
struct SlowLinkFactorTests {
    @Test func theFactorIsTheOperationTimeoutOverItsDefaultAndNeverBelowOne() {
        var configuration = BridgeConfiguration(mqtt: .init(host: "localhost"), adapters: ["hci0"], gateway: "test")
        #expect(configuration.slowLinkFactor == 1)
        configuration.gattOperationTimeout = .seconds(2)
        #expect(configuration.slowLinkFactor == 1, "a shorter timeout shortens nothing else")
        configuration.gattOperationTimeout = .milliseconds(12_500)
        #expect(configuration.slowLinkFactor == 2.5)
    }

    @Test func aSlowLinkStretchesTheConnectionAndTheWaitForAConfirmation() async throws {
        let id = "001122334466"
        let sink = RecordingSink()
        let link = InMemoryDevices.belt(confirmsModes: false)
        let driver = BeltDriver()
        var context = InMemorySession<ProfileSession<BeltFamilyProfile>>.context(
            link: link, sink: sink, id: id, driver: driver)
        context.slowLinkFactor = 2
        let belt = await InMemorySession.connected(driver.session(for: link.device, context: context), sink: sink)
        #expect(await link.connectTimeouts == [.seconds(20)], "the family's 10 s, twice")

        let command = try driver.parse(command: "mode", payload: CommandPayload(bytes: Array("pause".utf8)))
        let sent = ContinuousClock.now
        await #expect(throws: CommandError.self) { _ = try await belt.session.execute(command) }
        // A lower bound only: the refusal cannot come before twice the belt's 1 s.
        #expect(ContinuousClock.now - sent >= .seconds(2 * BeltHandshake.answerTimeoutSeconds))
        await belt.end()
    }
}
