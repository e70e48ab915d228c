/// Something that carries the Activ5 force stream from the virtual devices to a receiver the benchmark
/// watches, and sample-period commands back: the D-Bus floor, gatt2mqtt, or the Python peer.
protocol StreamRelay: Sendable {
    /// Name in the report.
    var name: String { get }
    /// The process whose CPU and memory are measured, if the relay is one.
    var processID: Int32? { get }
    /// Connects the devices and starts their streams at `periodMilliseconds`.
    func start(_ devices: [BenchDevice], periodMilliseconds: Int16) async throws
    /// What arrived from `device`, with the moment it arrived.
    func receptions(of device: BenchDevice) -> [Reception]
    /// Sets the sample period through the relay and returns once the relay has answered; returns the
    /// moment the command was sent.
    func command(_ device: BenchDevice, periodMilliseconds: Int16) async throws -> UInt64
    /// Stops the streams; what is under way may still arrive.
    func stopStreams(_ devices: [BenchDevice]) async throws
    /// Lets the devices go (and ends the relay's process).
    func shutdown(_ devices: [BenchDevice]) async throws
    /// The measuring window opens: a relay whose instructions are counted starts counting.
    func windowOpened() throws
    /// The window closes: the instructions the relay ran in it, if they are counted.
    func windowClosed() throws -> Callgrind.Count?
}

extension StreamRelay {
    func windowOpened() throws {}
    func windowClosed() throws -> Callgrind.Count? { nil }
}
