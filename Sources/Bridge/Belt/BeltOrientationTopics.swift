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
            Publication(topic: orientation, payload: Self.orientationPayload(value)),
        ]
    }

    /// `BeltTelemetry.orientationJSON(value).text`, byte for byte (members in key order, whole numbers),
    /// written straight: it goes out with every value of the stream, up to hundreds a second per belt, and
    /// a dictionary built, sorted and quoted for each would cost more than the rest of the value's path.
    static func orientationPayload(_ value: BeltOrientation) -> String {
        "{\"accelerometer_status\":\(value.accelerometerStatus),\"accuracy\":\(value.accuracy)"
            + ",\"belt_heading\":\(BeltTelemetry.wholeDegrees(value.beltHeading)),\"box_heading\":\(BeltTelemetry.wholeDegrees(value.boxHeading))"
            + ",\"box_pitch\":\(value.boxPitch),\"box_roll\":\(value.boxRoll),\"fusion_status\":\(value.fusionStatus)"
            + ",\"gyroscope_status\":\(value.gyroscopeStatus),\"inaccurate\":\(value.isInaccurate)"
            + ",\"magnetometer_status\":\(value.magnetometerStatus)}"
    }
}
