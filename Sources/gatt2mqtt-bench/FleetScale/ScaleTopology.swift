/// Which gateway hears which device of the fleet-scale benchmark, and how loud: the fleet's traffic is claims per
/// (gateway, device) pair heard, so the number of hearers per device is what the benchmark varies.
///
/// Devices are spread evenly round a ring of gateways, `devicesPerGateway` to each; device `d`'s home gateway
/// hears it at −55 dBm. With `neighbours`, the two gateways either side of home hear it too, at −70 and −76 dBm
/// (which side is the louder alternates from device to device), so every device has three hearers whatever the
/// fleet's size: a hall where each gateway covers its aisle and a bit of the next. With `everyone`, every gateway
/// hears every device, 3 dB weaker per step round the ring from home (at most −100 dBm): the worst case, a room.
struct ScaleTopology: Sendable, Equatable {
    enum Reach: String, Sendable, CaseIterable {
        case neighbours
        case everyone
    }

    var gateways: Int
    var devices: Int
    var reach: Reach

    static let devicesPerGateway = 20
    static let homeRSSI: Int16 = -55

    /// `gateways` gateways and `devicesPerGateway` devices for each.
    init(gateways: Int, reach: Reach, devices: Int? = nil) {
        self.gateways = gateways
        self.devices = devices ?? gateways * Self.devicesPerGateway
        self.reach = reach
    }

    /// The gateway whose aisle device `device` is in.
    func home(of device: Int) -> Int { device * gateways / devices }

    /// How loud gateway `gateway` hears device `device`, in dBm; nil when it does not hear it at all.
    func rssi(device: Int, gateway: Int) -> Int16? {
        let home = home(of: device)
        let clockwise = (gateway - home + gateways) % gateways
        let steps = min(clockwise, gateways - clockwise)
        if steps == 0 { return Self.homeRSSI }
        switch reach {
        case .neighbours:
            guard steps == 1 else { return nil }
            // The louder neighbour alternates, so that no neighbour is everyone's second.
            let louder = device % 2 == 0 ? 1 : gateways - 1
            return clockwise == louder ? -70 : -76
        case .everyone:
            return max(-100, Self.homeRSSI - 12 - 3 * Int16(steps))
        }
    }

    /// The devices gateway `gateway` hears, with their RSSI, by index.
    func heard(by gateway: Int) -> [(device: Int, rssi: Int16)] {
        (0..<devices).compactMap { device in rssi(device: device, gateway: gateway).map { (device, $0) } }
    }

    /// How many gateways hear each device.
    var hearersPerDevice: Int {
        switch reach {
        case .neighbours: min(3, gateways)
        case .everyone: gateways
        }
    }

    /// Gateway `index`'s name: `gw-01` …, so that names sort as numbers do.
    static func gatewayName(_ index: Int) -> String { "gw-" + pad(index + 1, 2) }

    /// Device `index`'s Bluetooth address (`C0:FF:EE:00:HH:LL`) and its CPR-Band name.
    static func address(of index: Int) -> String {
        let high = pad(String(index / 256, radix: 16, uppercase: true), 2)
        let low = pad(String(index % 256, radix: 16, uppercase: true), 2)
        return "C0:FF:EE:00:\(high):\(low)"
    }

    static func name(of index: Int) -> String { "CPR-Band " + pad(index, 4) }

    private static func pad(_ number: Int, _ width: Int) -> String { pad(String(number), width) }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
