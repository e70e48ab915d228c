import Locks

/// What users asked a device for that outlives a link (an Activ5's streams, a CPR band's mode), as a JSON
/// object per device id. The session keeps it here and publishes it retained on `<family>/<id>/desired`;
/// every gateway also follows that topic for every device, whoever published it. A session starts from
/// the newer of the two: a reconnect carries on what this gateway was asked, a fleet's new owner (or a
/// gateway restarted after a crash) what the broker says.
final class DesiredStateStore: Sendable {
    private let state = Mutex(KeptAndHeard<[String: JSONValue], [String: JSONValue]>())

    /// The newer of what was kept and what was heard for `id`; empty when neither.
    func take(_ id: String) -> [String: JSONValue] { state.withLock { $0.newer(id) { $0 } } ?? [:] }

    private func keep(_ fields: [String: JSONValue], for id: String) {
        state.withLock { $0.keep(fields, for: id) }
    }

    /// Keeps `fields` for the session's device and publishes them retained on `<family>/<id>/desired`, for
    /// whichever gateway serves the device next.
    func record(_ fields: [String: JSONValue], core: SessionCore) {
        keep(fields, for: core.id)
        core.publish([.state(core.topic("desired"), JSONValue.object(fields).text)])
    }

    /// Moves what users asked of `old` to `new` (the device was renamed); the retained publication of it on `topic`
    /// (`<family>/<new>/desired`) when they asked for anything.
    func move(from old: String, to new: String, topic: String) -> [Publication] {
        let fields = state.withLock {
            $0.move(from: old, to: new)
            return $0.newer(new) { $0 }
        }
        guard let fields, !fields.isEmpty else { return [] }
        return [.state(topic, JSONValue.object(fields).text)]
    }

    /// A `desired` payload from the broker: a JSON object, or empty for none; false when malformed.
    func heard(_ id: String, payload: [UInt8]) -> Bool {
        let fields: [String: JSONValue]
        if payload.isEmpty {
            fields = [:]
        } else {
            guard case .object(let object)? = JSONValue.parse(payload) else { return false }
            fields = object
        }
        state.withLock { $0.hear(id, empty: [:]) { $0 = fields } }
        return true
    }
}

/// The `desired` leaf, for the drivers that follow it.
extension FamilyDriver {
    func followDesired(_ store: DesiredStateStore, id: String, leaf: String, payload: [UInt8]) -> Bool {
        leaf == "desired" ? store.heard(id, payload: payload) : true
    }

    /// `moveKept` of a family whose only memory is what users asked for: `desired`, said under the new id.
    func moveDesired(_ store: DesiredStateStore, from old: String, to new: String, topics: TopicMap) -> [Publication] {
        store.move(from: old, to: new, topic: topics.device(family, new, "desired"))
    }
}
