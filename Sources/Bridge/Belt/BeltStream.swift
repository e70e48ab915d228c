import Peripherals

extension BeltDriver {
    /// Headings on FE0C, published in whole degrees on `belt/<id>/heading`. `gatt2mqtt-sim belt --sequence-heading`
    /// sends heading n (int16 LE at byte 1) as its n-th value, at the orientation period asked for (below the
    /// belt's 20 ms with `--minimum-orientation-period-ms`).
    static let stream = FamilyStream(
        family: family, name: "belt headings", characteristic: BeltGATT.Characteristic.orientation,
        leaf: "heading", qos: 0, period: 360,
        simulatorArguments: { rate, index in
            [
                "belt", "--sequence-heading", "--orientation-period-ms", "\(max(1000 / rate, 1))",
                "--minimum-orientation-period-ms", "1", "--name", FamilyStream.numberedName("naviGuertel-", index),
            ]
        },
        sequenceOfValue: { $0.int16(at: 1).map(Int.init) }, sequenceOfPayload: { Int($0) },
        payloadOfSequence: { String((($0 % 360) + 360) % 360) })
}
