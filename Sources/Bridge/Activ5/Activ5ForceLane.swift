import BlueZ
import Peripherals
import Locks

/// Force and IMU values of one Activ5, decoded and published on the thread that received them: the
/// D-Bus thread hands them over through a notification lane, so a value at 200 Hz wakes no other
/// thread on its way to the broker. What the lane holds (squeeze detection, the tare, the last samples
/// for a software tare) is shared with the session's commands under a lock.
final class Activ5ForceLane: Sendable {
    private struct State {
        /// Taking values on the D-Bus thread only once connected: during the handshake every value goes
        /// to the session, which waits for answers among them.
        var live = false
        /// Its force and squeeze state only; the session's own telemetry publishes the rest.
        var telemetry: Activ5Telemetry
        var tare = ForceTare()
        /// The last raw force values (newtons before tare), for a software tare.
        var recentForces: [Double] = []
    }

    private let state: Mutex<State>
    private let core: SessionCore
    private let thresholds: DoubleSqueezeDetector.Thresholds
    private let started = ContinuousClock.now

    init(core: SessionCore, thresholds: DoubleSqueezeDetector.Thresholds) {
        self.core = core
        self.thresholds = thresholds
        state = Mutex(State(telemetry: Activ5Telemetry(id: core.id, topics: core.publisher.topics, thresholds: thresholds)))
    }

    /// The lane of a characteristic: on the D-Bus thread, takes force and IMU values while connected;
    /// everything else (answers, bytes that do not decode) goes on to the session.
    func lane(for uuid: String) -> NotificationLane {
        let decode = Activ5Notification.decoder(characteristic: uuid)
        return { [self] bytes in
            guard state.withLock({ $0.live }), let notification = try? decode(bytes), publish(notification) else { return false }
            core.countNotification()
            return true
        }
    }

    /// Publishes a force value (tared, with its squeeze events) or an IMU sample; false for anything else.
    @discardableResult
    func publish(_ notification: Activ5Notification) -> Bool {
        if case .imu(let sample) = notification {
            core.publisher.publish(state.withLock { $0.telemetry.imu(sample) })
            return true
        }
        guard let newtons = notification.newtons else { return false }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        core.publish(
            state.withLock { state in
                if state.recentForces.count == Self.samplesForTare { state.recentForces.removeFirst() }
                state.recentForces.append(newtons)
                return state.telemetry.force(newtons: state.tare.corrected(newtons), at: seconds)
            })
        return true
    }

    /// The samples a software tare averages.
    private static let samplesForTare = 5

    func goLive() { state.withLock { $0.live = true } }

    /// The link ended: values go to the session again, squeeze starts released, samples are forgotten.
    func reset() {
        state.withLock { state in
            state.live = false
            state.recentForces = []
            state.telemetry.reset(thresholds: thresholds)
        }
    }

    /// Streaming stopped: a software tare needs fresh samples.
    func forgetSamples() { state.withLock { $0.recentForces = [] } }

    /// Zeroes on the mean of the last samples; false when there is none.
    func tareOnRecentSamples() -> Bool {
        state.withLock { state in
            guard let tare = ForceTare(averaging: state.recentForces) else { return false }
            state.tare = tare
            return true
        }
    }
}
