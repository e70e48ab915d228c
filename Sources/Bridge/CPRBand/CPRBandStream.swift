import Peripherals

extension CPRBandDriver {
    /// Compression peaks on FFF1, published in centimetres with one decimal on `cpr/<id>/peak` (QoS 1: a peak is
    /// not to be lost). `gatt2mqtt-sim cpr --sequence-peaks` sends 1, 2, … 255 mm, then 1 again.
    static let stream = FamilyStream(
        family: family, name: "CPR-band peaks", characteristic: CPRBandGATT.Characteristic.depth, leaf: "peak",
        qos: 1, period: 255,
        simulatorArguments: { rate, index in
            [
                "cpr", "--sequence-peaks", "--peaks-per-second", "\(rate)", "--name",
                FamilyStream.numberedName("CPR-", index),
            ]
        },
        sequenceOfValue: { $0.first.map(Int.init) },
        sequenceOfPayload: { Double($0).map { Int(($0 * 10).rounded()) } },
        payloadOfSequence: { "\($0 / 10).\($0 % 10)" })
}
