import Testing

@testable import Bridge

/// What a CPR band's RSSI publishes (issue #56): a distance exponent of `1e-320` was taken, and `cpr/<id>/distance`
/// said `inf`. The settings now refuse it (`ConfigurationValidationTests`); whatever model the band gets, a distance
/// that is no finite number is not published, and the RSSI still is.
struct CPRBandSignalTests {
    private func signal(exponent: Double, rssi: Int16 = -60) -> [LeafOutput] {
        var options = CPRBandOptions()
        options.distance.exponent = exponent
        return CPRBandTelemetry(options: options).signal(rssi: rssi, advertisedTxPower: nil)
    }

    @Test func aDistanceThatIsNoNumberIsNotPublished() throws {
        let subnormal = try #require(Double("1e-320"))
        #expect(signal(exponent: subnormal) == [.value("rssi", "-60", qos: 0)])
        #expect(signal(exponent: 2, rssi: -59) == [.value("rssi", "-59", qos: 0), .value("distance", "1.00", qos: 0)])
    }
}
