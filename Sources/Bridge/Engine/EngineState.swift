/// The engine's state under the lane's lock: the profile's stream state and memory, and what each retained leaf last
/// said.
struct EngineState<Profile: FamilyProfile>: Sendable {
    var stream: Profile.StreamState
    var memory: Profile.Memory
    var retained: RetainedLeaves
    /// What the profile published while the session was connecting, held until it is connected (or failed).
    var held: [Publication]?
    /// Whether the session is connected (its handshake done), for what a profile does only then.
    var connected = false

    init(stream: Profile.StreamState, memory: Profile.Memory, retained: RetainedLeaves) {
        self.stream = stream
        self.memory = memory
        self.retained = retained
        valueTopics = []
    }

    /// The topics of the stream leaves this device has published, made once: a stream's value (up to hundreds a
    /// second) then costs a comparison of short leaf names instead of building its topic.
    private var valueTopics: [(leaf: String, topic: String)]

    /// `outputs` as publications: state only where the leaf's value changed.
    mutating func publications(_ outputs: [LeafOutput], topics core: SessionCore) -> [Publication] {
        var publications: [Publication] = []
        publications.reserveCapacity(outputs.count)
        for output in outputs {
            switch output {
            case .state(let leaf, let payload): publications += retained.changed(leaf, payload)
            case .value(let leaf, let payload, let qos):
                publications.append(Publication(topic: topic(of: leaf, core), payload: payload, qos: qos))
            }
        }
        return publications
    }

    private mutating func topic(of leaf: String, _ core: SessionCore) -> String {
        for index in valueTopics.indices where valueTopics[index].leaf == leaf { return valueTopics[index].topic }
        let topic = core.topic(leaf)
        valueTopics.append((leaf, topic))
        return topic
    }
}
