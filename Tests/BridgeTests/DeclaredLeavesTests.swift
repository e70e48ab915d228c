import Peripherals
import Testing

@testable import Bridge

/// A declared characteristic's JSON topic, byte for byte: every kind of value, the integers at their extremes (a u64's
/// too, which a double would round), written in place as the notification path writes them.
struct DeclaredLeavesTests {
    @Test func everyKindOfValueInOneJSONObject() {
        let characteristic = DeclaredCharacteristic(
            uuid: BluetoothUUID.expand(0x2A5B), service: BluetoothUUID.expand(0x1816), access: .notify,
            topic: "measurement", retain: false, fields: [])
        let fields = [
            DecodedField(name: "zero", value: .integer(0)),
            DecodedField(name: "negative", value: .integer(-1234)),
            DecodedField(name: "smallest", value: .integer(.min)),
            DecodedField(name: "largest", value: .integer(.max)),
            DecodedField(name: "u64", value: .unsignedInteger(.max)),
            DecodedField(name: "ten", value: .integer(10)),
            DecodedField(name: "scaled", value: .number(0.25)),
            DecodedField(name: "on", value: .flag(true)),
            DecodedField(name: "off", value: .flag(false)),
            DecodedField(name: "location", value: .text("left \"crank\"")),
            DecodedField(name: "rr", value: .list([.number(0.5), .integer(7)])),
        ]
        let leaves = DeclaredLeaves.leaves(of: fields, from: characteristic)
        #expect(
            leaves == [
                .value(
                    "measurement",
                    #"{"zero":0,"negative":-1234,"smallest":-9223372036854775808,"largest":9223372036854775807,"#
                        + #""u64":18446744073709551615,"ten":10,"scaled":0.25,"on":true,"off":false,"#
                        + #""location":"left \"crank\"","rr":[0.5,7]}"#, qos: 0)
            ])
    }
}
