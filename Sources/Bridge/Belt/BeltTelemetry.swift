import Peripherals

/// What a belt's notifications say, by leaf of its topics. Pure; remembers only the mode, which navigation, the
/// vibrations outside app mode and the power-off on standby need (the engine sends retained state only when it
/// changes: the keep-alive repeats the mode every few seconds).
struct BeltTelemetry: Sendable {
    private(set) var mode: BeltMode?

    mutating func outputs(for notification: BeltNotification) -> [LeafOutput] {
        switch notification {
        case .orientation(let orientation):
            return Self.orientation(orientation)
        case .keepAlive(let mode), .parameter(.mode(let mode)):
            return modeChanged(to: mode)
        case .button(let event):
            let press = JSONValue.object([
                "button": .string(event.button.name), "press": .string(event.isLongPress ? "long" : "short"),
                "previous_mode": .string(event.previousMode.name), "mode": .string(event.newMode.name),
            ])
            return [.value("button", press.text, qos: 1)] + modeChanged(to: event.newMode)
        case .battery(let status):
            return [.state("battery", Self.batteryJSON(status).text)]
        case .parameter(.defaultIntensity(let intensity)), .parameter(.advancedDefaultIntensity(let intensity)):
            return [.state("intensity", String(intensity))]
        case .parameter(.headingOffset(let degrees)), .parameter(.advancedHeadingOffset(let degrees)):
            return [.state("heading_offset", String(degrees))]
        case .parameter(.accuracySignal(let state)):
            let signal = JSONValue.object([
                "compass_mode": .bool(state.contains(.compassMode)), "app_mode": .bool(state.contains(.appMode)),
            ])
            return [.state("compass_accuracy_signal", signal.text)]
        case .parameter, .firmware:
            return []
        }
    }

    /// `belt/<id>/heading` (0–359) and `belt/<id>/orientation`: the belt's stream, up to hundreds a second.
    static func orientation(_ value: BeltOrientation) -> [LeafOutput] {
        [
            .value("heading", String(wholeDegrees(value.beltHeading)), qos: 0),
            .value("orientation", orientationPayload(value), qos: 0),
        ]
    }

    /// `orientationJSON(value).text`, byte for byte (members in key order, whole numbers), written straight
    /// (`PayloadWriter`): it goes out with every value of the stream.
    static func orientationPayload(_ value: BeltOrientation) -> String {
        PayloadWriter.text(capacity: 320) { text in
            text.append("{\"accelerometer_status\":")
            text.append(value.accelerometerStatus)
            text.append(",\"accuracy\":")
            text.append(value.accuracy)
            text.append(",\"belt_heading\":")
            text.append(wholeDegrees(value.beltHeading))
            text.append(",\"box_heading\":")
            text.append(wholeDegrees(value.boxHeading))
            text.append(",\"box_pitch\":")
            text.append(value.boxPitch)
            text.append(",\"box_roll\":")
            text.append(value.boxRoll)
            text.append(",\"fusion_status\":")
            text.append(value.fusionStatus)
            text.append(",\"gyroscope_status\":")
            text.append(value.gyroscopeStatus)
            text.append(",\"inaccurate\":")
            text.append(value.isInaccurate)
            text.append(",\"magnetometer_status\":")
            text.append(value.magnetometerStatus)
            text.append("}")
        }
    }

    static func orientationJSON(_ orientation: BeltOrientation) -> JSONValue {
        .object([
            "belt_heading": .number(Double(wholeDegrees(orientation.beltHeading))),
            "box_heading": .number(Double(wholeDegrees(orientation.boxHeading))),
            "box_roll": .number(Double(orientation.boxRoll)),
            "box_pitch": .number(Double(orientation.boxPitch)),
            "accuracy": .number(Double(orientation.accuracy)),
            "magnetometer_status": .number(Double(orientation.magnetometerStatus)),
            "accelerometer_status": .number(Double(orientation.accelerometerStatus)),
            "gyroscope_status": .number(Double(orientation.gyroscopeStatus)),
            "fusion_status": .number(Double(orientation.fusionStatus)),
            "inaccurate": .bool(orientation.isInaccurate),
        ])
    }

    /// Level in percent; the time field is time to full while charging and time to empty otherwise.
    static func batteryJSON(_ status: BeltBatteryStatus) -> JSONValue {
        var members: [String: JSONValue] = [
            "level": .number((status.levelPercent * 10).rounded() / 10), "power": .string(status.powerStatus.name),
        ]
        let seconds = JSONValue.number(status.timeSeconds.rounded())
        switch status.powerStatus {
        case .charging: members["time_to_full_s"] = seconds
        case .battery: members["time_to_empty_s"] = seconds
        default: break
        }
        return .object(members)
    }

    private mutating func modeChanged(to newMode: BeltMode) -> [LeafOutput] {
        guard newMode != mode else { return [] }
        mode = newMode
        return [.state("mode", newMode.name)]
    }

    /// Headings are signed on the wire; publish them as 0–359.
    static func wholeDegrees(_ heading: Int16) -> Int {
        ((Int(heading) % 360) + 360) % 360
    }
}
