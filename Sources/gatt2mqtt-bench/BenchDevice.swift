import Bridge

/// One virtual Activ5 of the benchmark: its adapter, address, topic id and traffic log.
struct BenchDevice: Sendable {
    var adapter: String
    var address: String
    var trafficLog: String
    var id: String { DeviceID.from(address: address) }
}
