/// A device renamed at run time (`devices.aliases`, changed by `request/rename` or `request/options`): its topics
/// move to the new `<id>` at once, without a restart.
extension DeviceSessions {
    /// Moves every device whose `<id>` differs between `before` and `after` (upper-case address → alias), then
    /// serves those that should be served under their new ids.
    func aliasesChanged(from before: [String: String], to after: [String: String]) async {
        let addresses = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        for address in addresses.sorted() {
            let old = before[address] ?? DeviceID.from(address: address)
            let new = after[address] ?? DeviceID.from(address: address)
            if old != new { await move(address, from: old, to: new) }
        }
        await considerAllDevices()
        await publishInventory()
    }

    /// The device's session ends (its link too: everything it says, it says under one id), what its family keeps
    /// under the old id (what users asked for) is said under the new one, and every retained topic under the old id
    /// is cleared, so that nothing on the broker names the device by a name it no longer has. Home Assistant's
    /// configs stay where they are (their topics are the device's identity, not its id): the session that starts
    /// next announces them again with the new topics, and Home Assistant keeps every entity, its id and history.
    private func move(_ address: String, from old: String, to new: String) async {
        let path = table.path(serving: address)
        let family =
            path.flatMap { table.session(at: $0)?.session.family } ?? adoptions.family(of: address)
            ?? choices.withLock { $0.family(of: address) }
        if let path { await stopSession(at: path, settled: true) }
        context.logger.notice(
            "device renamed",
            metadata: [
                "device": "\(address)", "from": "\(old)", "to": "\(new)", "family": "\(family?.rawValue ?? "")",
            ])
        guard let family, let driver = context.driver(of: family) else { return }
        let topics = context.topics
        for publication in driver.moveKept(from: old, to: new, topics: topics) {
            context.publisher.publish(publication)
        }
        for leaf in driver.retainedLeaves.sorted() {
            context.publisher.publish(.state(topics.device(family, old, leaf), ""))
        }
    }
}
