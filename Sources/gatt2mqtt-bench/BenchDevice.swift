import Bridge

/// One virtual Activ5 of the benchmark: its adapter, address, topic id and traffic log, and the central
/// adapter the D-Bus floor reaches it through.
struct BenchDevice: Sendable {
    var adapter: String
    var central: String
    var address: String
    var trafficLog: String
    var id: String { DeviceID.from(address: address) }
}
