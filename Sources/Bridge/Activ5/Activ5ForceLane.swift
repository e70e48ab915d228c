import BlueZ
import Peripherals

/// The Activ5's stream on its `TelemetryLane`: force and IMU values, decoded and published on the
/// thread that received them. What the lane holds (squeeze detection, the tare, the last samples for a
/// software tare) is shared with the session's commands.
final class Activ5ForceLane: Sendable {
    struct Stream: Sendable {
        /// Its force and squeeze state only; the session's own telemetry publishes the rest.
        var telemetry: Activ5Telemetry
        var tare = ForceTare()
        /// The last raw force values (newtons before tare), for a software tare.
        var recentForces: [Double] = []
    }

    private let stream: TelemetryLane<Stream>
    private let thresholds: DoubleSqueezeDetector.Thresholds
    private let started = ContinuousClock.now

    init(core: SessionCore, thresholds: DoubleSqueezeDetector.Thresholds) {
        self.thresholds = thresholds
        stream = TelemetryLane(
            core: core,
            state: Stream(
                telemetry: Activ5Telemetry(id: core.id, topics: core.topics, thresholds: thresholds)))
    }

    /// The lane of a characteristic: takes force and IMU values once live; everything else (answers)
    /// goes on to the session.
    func lane(for uuid: String) -> NotificationLane {
        let decode = Activ5Notification.decoder(characteristic: uuid)
        let started = started
        return stream.lane(for: uuid) { stream, bytes in
            Self.publications(for: try decode(bytes), in: &stream, at: started)
        }
    }

    /// Publishes a force or IMU value the session received itself; false for anything else.
    @discardableResult
    func publish(_ notification: Activ5Notification) -> Bool {
        let publications = stream.withState { Self.publications(for: notification, in: &$0, at: started) }
        guard let publications else { return false }
        stream.core.publish(publications)
        return true
    }

    /// A force value (tared, with its squeeze events) or an IMU sample; nil for anything else.
    private static func publications(
        for notification: Activ5Notification, in stream: inout Stream, at started: ContinuousClock.Instant
    )
        -> [Publication]?
    {
        if case .imu(let sample) = notification { return [stream.telemetry.imu(sample)] }
        guard let newtons = notification.newtons else { return nil }
        if stream.recentForces.count == samplesForTare { stream.recentForces.removeFirst() }
        stream.recentForces.append(newtons)
        return stream.telemetry.force(
            newtons: stream.tare.corrected(newtons), at: (ContinuousClock.now - started) / .seconds(1))
    }

    /// The samples a software tare averages.
    private static let samplesForTare = 5

    func goLive() { stream.goLive() }

    /// The link ended: values go to the session again, squeeze starts released, samples are forgotten.
    func reset() {
        stream.stop { [thresholds] in
            $0.recentForces = []
            $0.telemetry.reset(thresholds: thresholds)
        }
    }

    /// Streaming stopped: a software tare needs fresh samples.
    func forgetSamples() { stream.withState { $0.recentForces = [] } }

    /// Zeroes on the mean of the last samples; false when there is none.
    func tareOnRecentSamples() -> Bool {
        stream.withState { stream in
            guard let tare = ForceTare(averaging: stream.recentForces) else { return false }
            stream.tare = tare
            return true
        }
    }
}
