import struct Synchronization.Atomic

/// Whether one device's fast streams reach the broker (`devices.streaming`), switched at run time by the gateway and
/// read by the session's one publishing path for every value: an atomic load while the streams flow, and the leaf
/// compared only while they are off.
final class StreamSwitch: Sendable {
    /// The family's stream leaves (`FamilyDriver.streamLeaves`), each as `/<leaf>`: what a topic that carries one
    /// ends with.
    private let suffixes: [String]
    private let on: Atomic<Bool>

    init(leaves: Set<String> = [], on: Bool = true) {
        suffixes = leaves.sorted().map { "/" + $0 }
        self.on = Atomic(on)
    }

    func set(_ value: Bool) { on.store(value, ordering: .relaxed) }

    /// Whether `publication` is a fast stream's value that is to be dropped now.
    func drops(_ publication: Publication) -> Bool {
        guard !on.load(ordering: .relaxed) else { return false }
        return suffixes.contains { publication.topic.hasSuffix($0) }
    }
}
