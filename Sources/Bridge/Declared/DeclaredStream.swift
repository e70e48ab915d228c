import Peripherals

extension FamilyStream {
    /// The streams of declared families the benchmark drives beside the written ones' (issue #59: a declared profile
    /// as fast as written code): the shipped Cycling Speed and Cadence declaration's measurements.
    static let declared = [declaredSpeedAndCadence]

    /// CSC measurements on 2A5B, published as one JSON on `csc/<id>/measurement` by the shipped declaration.
    /// `gatt2mqtt-sim csc` notifies wheel and crank data; the n-th measurement since 2A5B was subscribed carries n
    /// crank revolutions (a uint16, so the sequence repeats every 65 536).
    static let declaredSpeedAndCadence = FamilyStream(
        family: DeviceFamily(declaring: "csc"), name: "declared speed and cadence",
        characteristic: CSCGATT.measurement, leaf: "measurement", qos: 0, period: 65536,
        simulatorArguments: { rate, index in
            ["csc", "--interval-ms", "\(max(1000 / rate, 1))", "--name", FamilyStream.numberedName("CSC-", index)]
        },
        sequenceOfValue: { value in
            // Flags 0x03: wheel data (6 bytes), then the crank revolutions (uint16 LE) at bytes 7-8.
            guard value.count == 11, value[0] == 0x03 else { return nil }
            return Int(UInt16(value[7]) | UInt16(value[8]) << 8)
        },
        sequenceOfPayload: { payload in
            guard let start = payload.firstRange(of: #""crank_revolutions":"#)?.upperBound else { return nil }
            return Int(payload[start...].prefix { $0.isASCII && $0.isNumber })
        },
        payloadOfSequence: { sequence in
            // The bridge's JSON for the sequence's measurement at 50 values a second (1/1024 s event times).
            let time = JSONValue.number(Double(sequence * 20 * 1024 / 1000 % 65536) / 1024).text
            return #"{"wheel_revolutions":\#(2 * sequence),"wheel_event_time":\#(time),"#
                + #""crank_revolutions":\#(sequence),"crank_event_time":\#(time)}"#
        })
}
