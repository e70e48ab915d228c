import Peripherals

extension Activ5Driver {
    /// Force on F0FE, published in newtons with two decimals on `a5/<id>/force`. `gatt2mqtt-sim a5 --sequence-force`
    /// sends raw counts 1, 2, 3, … (int16 LE), each of which maps back from its newtons; the relays set the rate
    /// by writing the sample period (F0FA), and gatt2mqtt starts and stops the stream on command.
    static let stream: FamilyStream = {
        var stream = FamilyStream(
            family: family, name: "Activ5 force", characteristic: Activ5GATT.Characteristic.force, leaf: "force",
            qos: 0, period: Int(Int16.max),
            simulatorArguments: { _, index in
                [
                    "a5", "--sequence-force", "--minimum-period-ms", "1", "--power-off-seconds", "86400", "--name",
                    FamilyStream.numberedName("ACTIV5-BE-", index),
                ]
            },
            sequenceOfValue: { $0.int16(at: 0).map(Int.init) },
            sequenceOfPayload: { text in
                Double(text).flatMap { Int16(exactly: ($0 / Activ5ForceScale.newNewtonsPerCount).rounded()) }.map(
                    Int.init)
            },
            payloadOfSequence: { sequence in
                let hundredths = Int((Double(sequence) * Activ5ForceScale.newNewtonsPerCount * 100).rounded())
                let magnitude = abs(hundredths)
                let fraction = magnitude % 100
                return (hundredths < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
            })
        stream.periodCharacteristic = Activ5GATT.Characteristic.samplePeriod
        stream.startCommands = { period in
            [CommandExample("sample_period", "{\"period_ms\":\(period)}"), CommandExample("start", "{}")]
        }
        stream.stopCommands = [CommandExample("stop", "{}")]
        // Ready once it says its state: an empty `state` is the start clearing an earlier run's.
        stream.readyLeaf = "state"
        stream.readyPayload = nil
        return stream
    }()
}
