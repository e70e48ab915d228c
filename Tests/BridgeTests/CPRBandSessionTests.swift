import BlueZ
import Peripherals
import Testing

@testable import Bridge

/// A CPR-Band session driven in memory, through the seams every session has (`GATTLink`, `MessageSink`):
/// the whole session, from connect to telemetry and commands, with no BlueZ, bus or broker.
struct CPRBandSessionTests {
    private let id = "001122334455"
    private let link = InMemoryDevices.cprBand()
    private let sink = RecordingSink()
    private let metrics = DeviceMetrics()
    private let driver = CPRBandDriver(options: CPRBandOptions())

    private func connectedSession() async -> InMemorySession<ProfileSession<CPRBandFamilyProfile>> {
        let context = InMemorySession<ProfileSession<CPRBandFamilyProfile>>.context(
            link: link, sink: sink, id: id, driver: driver, metrics: metrics)
        return await .connected(driver.session(for: link.device, context: context), sink: sink)
    }

    private func command(_ name: String, _ payload: String = "{}") throws -> ParsedCommand {
        try driver.parse(command: name, payload: CommandPayload(bytes: Array(payload.utf8)))
    }

    private func write(_ byte: UInt8) -> InMemoryLink.Write {
        .init(characteristic: CPRBandGATT.Characteristic.command, bytes: [byte])
    }

    @Test func connectingReadsTheBatteryAndPutsTheBandInReadyModeAsBusDoes() async throws {
        let band = await connectedSession()
        #expect(await link.writes == [write(0xF1)])
        #expect(sink.payloads(on: "cpr/\(id)/mode").last == "ready")
        #expect(sink.payloads(on: "cpr/\(id)/battery") == [#"{"percent":83.3,"raw":208,"volts":4.16}"#])
        #expect(sink.payloads(on: "cpr/\(id)/desired") == [#"{"mode":"ready"}"#])
        await band.end()
        #expect(sink.payloads(on: "cpr/\(id)/connection").last == "disconnected")
    }

    /// Every task of the connection (its three streams, the battery and signal refreshes, the vitals) is in its scope,
    /// and none is left once the session has said `disconnected`: no session stores a task to cancel by hand.
    @Test func theConnectionsTasksEndWithIt() async throws {
        let band = await connectedSession()
        let core = band.session.core
        for key in CPRBandGATT.notifyingCharacteristics + ["battery", "signal", "vitals"] {
            #expect(core.connection.isRunning(key), "\(key)")
        }
        await band.end()
        #expect(sink.payloads(on: "cpr/\(id)/connection").last == "disconnected")
        #expect(core.connection.count == 0)
    }

    @Test func everyPeakIsPublishedAndAnEmptyNotificationIsCountedNotPublished() async throws {
        let band = await connectedSession()
        await link.notify(CPRBandGATT.Characteristic.depth, [54])
        await link.notify(CPRBandGATT.Characteristic.depth, [])
        // Longer payloads are read as the vendor's Bus library reads them: the last byte.
        await link.notify(CPRBandGATT.Characteristic.depth, [50, 61])
        await sink.next(on: "cpr/\(id)/peak") { $0 == "6.1" }
        #expect(sink.payloads(on: "cpr/\(id)/peak") == ["5.4", "6.1"])
        #expect(metrics.snapshot["cpr/\(id)"]?.decodeErrors == 1)
        await band.end()
    }

    @Test func aCommandIsWrittenAsParsedAndARefusedOneWritesNothing() async throws {
        let band = await connectedSession()
        let session = band.session
        _ = try await session.execute(command("range", #"{"min_mm":50,"max_mm":60}"#))
        #expect(await link.writes.dropFirst() == [write(0xF5), write(50), write(60)])

        _ = try await session.execute(command("practice"))
        #expect(sink.payloads(on: "cpr/\(id)/mode").last == "practicing")
        #expect(sink.payloads(on: "cpr/\(id)/desired").last == #"{"mode":"practicing"}"#)
        let written = await link.writes.count
        await #expect(throws: CommandError.self) { _ = try await session.execute(command("call")) }
        #expect(await link.writes.count == written, "call is for ready mode only: nothing is written in practice")
        await band.end()
    }

    @Test func aCommandForAnotherFamilyOrABandNotConnectedWritesNothing() async throws {
        let context = InMemorySession<ProfileSession<CPRBandFamilyProfile>>.context(
            link: link, sink: sink, id: id, driver: driver)
        let session = driver.session(for: link.device, context: context)
        do {
            _ = try await session.execute(command("practice"))
            Issue.record("a band that never connected took a command")
        } catch let error as CommandError {
            #expect(error.code == .notConnected)
        }
        let belt = try BeltDriver().parse(command: "stop", payload: CommandPayload(bytes: Array("{}".utf8)))
        do {
            _ = try await session.execute(belt)
            Issue.record("a CPR-Band session took a belt command")
        } catch {
            #expect(error.code == .unknownCommand)
        }
        #expect(await link.writes.isEmpty)
    }
}
