import Peripherals

/// What a belt's orientation value becomes: `belt/<id>/heading` (0–359) and `belt/<id>/orientation`.
/// The topics are written once; they are the topics of every value of the belt's main stream.
struct BeltOrientationTopics: Sendable {
    let heading: String
    let orientation: String

    init(id: String, topics: TopicMap) {
        heading = topics.device(.belt, id, "heading")
        orientation = topics.device(.belt, id, "orientation")
    }

    func publications(for value: BeltOrientation) -> [Publication] {
        [
            Publication(topic: heading, payload: String(BeltTelemetry.wholeDegrees(value.beltHeading))),
            Publication(topic: orientation, payload: BeltTelemetry.orientationJSON(value).text),
        ]
    }
}
