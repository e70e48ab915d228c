import Peripherals
import Testing

@testable import Bridge

/// Each family's main stream as the benchmark reads it (`FamilyStream`, declared in the family's folder): one per
/// registered family and the declared ones the benchmark drives, told apart by its leaf, and its sequence surviving the trip through the bridge's payload.
@Suite struct FamilyStreamTests {
    @Test func everyRegisteredFamilyDeclaresOneStreamWithALeafOfItsOwn() {
        #expect(FamilyStream.all.map(\.family) == DeviceFamily.allCases + FamilyStream.declared.map(\.family))
        #expect(Set(FamilyStream.all.map(\.leaf)).count == FamilyStream.all.count)
        #expect(Set(FamilyStream.all.map(\.name)).count == FamilyStream.all.count)
        for stream in FamilyStream.all {
            // The simulator's subcommand is the family's name; a stream repeats after at least a few values.
            #expect(stream.simulatorArguments(50, 7).first == stream.family.rawValue, "\(stream.family)")
            #expect(stream.period > 1, "\(stream.family)")
            #expect(stream.qos <= 1, "\(stream.family)")
            #expect(stream.characteristic == BluetoothUUID.normalized(stream.characteristic), "\(stream.family)")
        }
    }

    /// What the floor relay publishes maps back to the sequence it came from, as the benchmark's watcher reads it.
    @Test(arguments: FamilyStream.all.map(\.family))
    func aPayloadCarriesItsSequence(_ family: DeviceFamily) throws {
        let stream = try #require(FamilyStream.all.first { $0.family == family })
        var checked = 0
        for sequence in 1..<min(stream.period, 1000) {
            guard let payload = stream.payloadOfSequence(sequence) else { continue }
            #expect(stream.sequenceOfPayload(payload) == sequence, "\(family) \(sequence) → \(payload)")
            checked += 1
        }
        #expect(checked > 0)
    }

    /// The values the simulators send in their sequence modes, made by the encoders they use.
    @Test func simulatedValuesCarryTheirSequence() {
        let belt = BeltNotification.orientation(BeltOrientation(beltHeading: 123, boxHeading: 123, accuracy: 5))
        #expect(BeltDriver.stream.sequenceOfValue(belt.encoded()) == 123)
        #expect(BeltDriver.stream.payloadOfSequence(123) == "123")
        #expect(Activ5Driver.stream.sequenceOfValue([0x39, 0x30]) == 12345)
        #expect(Activ5Driver.stream.payloadOfSequence(100) == "27.16")
        #expect(CPRBandDriver.stream.sequenceOfValue([42]) == 42)
        #expect(CPRBandDriver.stream.payloadOfSequence(42) == "4.2")
        #expect(GripDriver.stream.floorPayload([1]) == GripEvent.allCases.first?.rawValue)
        for rate in [30, 72, 250] {
            let measurement = HeartRateMeasurement(beatsPerMinute: rate).encoded()
            #expect(HeartRateDriver.stream.sequenceOfValue(measurement) == rate)
            #expect(HeartRateDriver.stream.floorPayload(measurement) == String(rate))
        }
        // The uint16 form of the rate (flags bit 0).
        #expect(HeartRateDriver.stream.sequenceOfValue([0x01, 0x2C, 0x01]) == 300)
    }
}
