import Testing

@testable import Peripherals

@Suite struct ForceTareTests {
    @Test func averagingIgnoresNonFiniteSamples() throws {
        let tare = try #require(ForceTare(averaging: [3.0, 4.0, .nan, 5.0]))
        #expect(tare.offsetNewtons == 4)
        #expect(tare.corrected(10) == 6)
        #expect(tare.corrected(4) == 0)
        #expect(ForceTare(averaging: []) == nil)
        #expect(ForceTare(averaging: [Double.infinity]) == nil)
    }

    @Test func tareOnOneReadingAndReset() {
        var tare = ForceTare()
        #expect(tare.corrected(7.5) == 7.5)
        tare.tare(atNewtons: 2.5)
        #expect(tare.corrected(7.5) == 5)
        tare.tare(atNewtons: .nan)
        #expect(tare.offsetNewtons == 2.5)
        tare.reset()
        #expect(tare.offsetNewtons == 0)
    }

    @Test func taresNewProtocolForceFromTheWire() throws {
        // Resting at raw 16 (4.35 N), then a press at raw 256 (69.52 N).
        let rest = try Activ5Notification.decode(characteristic: "F0FE", bytes: [0x10, 0x00])
        let press = try Activ5Notification.decode(characteristic: "F0FE", bytes: [0x00, 0x01])
        let tare = ForceTare(offsetNewtons: try #require(rest.newtons))
        #expect(abs(tare.corrected(try #require(press.newtons)) - 240 * 0.27156315909) < 1e-9)
    }
}
