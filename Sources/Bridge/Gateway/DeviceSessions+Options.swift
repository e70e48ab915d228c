/// What was chosen for single devices changed at run time (`devices.names`, `devices.entities`, `devices.streaming`,
/// `devices.intervals`, through `request/options`): a served device takes it at once, without a new session or a new
/// link.
extension DeviceSessions {
    /// Each device served here whose options differ between `before` and `after` (upper-case address → options): its
    /// streams switched, its periodic work paced anew, its Home Assistant configs sent again as chosen now. A device
    /// not served takes its options when its session starts.
    func deviceOptionsChanged(from before: [String: DeviceOptions], to after: [String: DeviceOptions]) {
        let addresses = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        for address in addresses.sorted() {
            guard let path = table.path(serving: address), let entry = table.session(at: path) else { continue }
            let options = after[address] ?? .standard
            entry.streams.set(options.streaming)
            entry.intervals.set(options.intervals)
            if (before[address] ?? .standard).homeAssistantView != options.homeAssistantView {
                homeAssistant.reconfigure(at: path, options: options)
            }
            context.logger.notice(
                "device options changed",
                metadata: [
                    "device": "\(address)", "name": "\(options.name ?? "")", "streaming": "\(options.streaming)",
                    "entities":
                        "\(options.entities.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" })",
                    "intervals":
                        "\(options.intervalsInSeconds.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })",
                ])
        }
    }
}
