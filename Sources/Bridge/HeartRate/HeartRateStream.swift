import Peripherals

extension HeartRateDriver {
    /// Heart rate measurements on 2A37, their rate published on `hr/<id>/bpm`. `gatt2mqtt-sim hr --sequence-bpm`
    /// sends 30, 31, … 250 bpm, then 30 again (uint8 after the flags byte), without RR intervals or energy so
    /// that `bpm` is the whole stream, at the interval asked for.
    static let stream = FamilyStream(
        family: family, name: "heart rates", characteristic: HeartRateGATT.Characteristic.measurement, leaf: "bpm",
        qos: 0, period: 221,
        simulatorArguments: { rate, index in
            [
                "hr", "--sequence-bpm", "--interval-ms", "\(max(1000 / rate, 1))", "--no-rr", "--no-energy", "--name",
                FamilyStream.numberedName("HRM-", index),
            ]
        },
        sequenceOfValue: { value in
            // Flags bit 0: the rate is a uint16 (LE) rather than a uint8.
            guard let flags = value.first else { return nil }
            if flags & 1 == 0 { return value.count >= 2 ? Int(value[1]) : nil }
            return value.count >= 3 ? Int(UInt16(value[1]) | UInt16(value[2]) << 8) : nil
        },
        sequenceOfPayload: { Int($0) }, payloadOfSequence: { String($0) })
}
