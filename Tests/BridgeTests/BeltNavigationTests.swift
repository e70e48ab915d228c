import Peripherals
import Testing

@testable import Bridge

struct BeltNavigationTests {
    private let t0 = ContinuousClock.now

    private func at(_ milliseconds: Int) -> ContinuousClock.Instant { t0 + .milliseconds(milliseconds) }

    // MARK: Expected wire bytes

    private static let modeApp: [UInt8] = [0x01, 0x81, 0x03, 0x00]
    private static let modePause: [UInt8] = [0x01, 0x81, 0x04, 0x00]
    private static let modeWait: [UInt8] = [0x01, 0x81, 0x01, 0x00]
    private static let stopNavigationChannel: [UInt8] = [0x30, 0x02]

    /// Channel 2, continuous, default intensity, bearing/angle `degrees`, forever, 500 ms, not exclusive.
    private static func navigationSignal(_ degrees: UInt16, type: UInt8 = 0x03, intensity: [UInt8] = [0xAA, 0xAA])
        -> [UInt8]
    {
        [0x02, 0x01] + intensity + [
            0x00, 0x00, type, UInt8(degrees & 0xFF), UInt8(degrees >> 8), 0x00, 0x00, 0x00, 0xF4, 0x01, 0x00, 0x00,
            0x00, 0x00,
        ]
    }

    /// The wire bytes of every command in `actions`.
    private func sent(_ actions: [NavigationAction]) -> [[UInt8]] {
        actions.compactMap { if case .send(let command) = $0 { command.encoded() } else { nil } }
    }

    private func states(_ actions: [NavigationAction]) -> [BeltNavigation.State] {
        actions.compactMap { if case .publishState(let state) = $0 { state } else { nil } }
    }

    private func bearing(_ degrees: Int, _ preset: BeltSignalPreset? = .navigation) -> BeltNavigation.Signal {
        BeltNavigation.Signal(direction: degrees, orientation: .bearing, preset: preset)
    }

    /// A machine connected to a belt in `mode`.
    private func connected(_ mode: BeltMode) -> BeltNavigation {
        var navigation = BeltNavigation()
        #expect(navigation.connected(mode: mode, now: t0).isEmpty)
        return navigation
    }

    /// Navigating at bearing `degrees` with the belt confirmed in app mode and the signal sent at `t0`.
    private func navigating(_ degrees: Int = 90) throws -> BeltNavigation {
        var navigation = connected(.app)
        #expect(sent(try navigation.start(bearing(degrees), now: t0)) == [Self.navigationSignal(UInt16(degrees))])
        return navigation
    }

    /// Paused by the app: Pause mode requested and confirmed by the belt.
    private func pausedByNavigation() throws -> BeltNavigation {
        var navigation = try navigating()
        #expect(sent(navigation.pause()) == [Self.modePause])
        #expect(navigation.modeChanged(to: .pause, now: at(200)).isEmpty)
        return navigation
    }

    // MARK: Start, update, signal

    @Test func startFromWaitSwitchesToAppModeThenSendsTheSignalOnChannelTwo() throws {
        var navigation = connected(.wait)
        let actions = try navigation.start(bearing(90), now: t0)
        #expect(actions == [.send(.changeMode(.app)), .publishState(.navigating)])
        #expect(sent(actions) == [Self.modeApp])
        #expect(navigation.state == .navigating)
        // The belt confirms app mode (FE06 `01 01 03`): now the signal goes out.
        #expect(sent(navigation.modeChanged(to: .app, now: at(40))) == [Self.navigationSignal(90)])
        // The keep-alive repeating app mode changes nothing.
        #expect(navigation.modeChanged(to: .app, now: at(1000)).isEmpty)
    }

    @Test func startInAppModeSendsTheSignalAtOnce() throws {
        var navigation = connected(.app)
        let actions = try navigation.start(bearing(90), now: t0)
        #expect(sent(actions) == [Self.navigationSignal(90)])
        #expect(states(actions) == [.navigating])
    }

    @Test func angleSignalAndIntensityAreEncoded() throws {
        var navigation = connected(.app)
        let signal = BeltNavigation.Signal(direction: -90, orientation: .angle, preset: .navigation, intensity: 40)
        #expect(
            sent(try navigation.start(signal, now: t0)) == [
                Self.navigationSignal(270, type: 0x02, intensity: [0x28, 0x00])
            ])
    }

    @Test func otherRepeatedPresetsUseTheNavigationChannel() throws {
        var navigation = connected(.app)
        // turn: single long pulse, 750 ms, forever, bearing 45, channel 2.
        #expect(
            sent(try navigation.start(bearing(45, .turn), now: t0)) == [
                [
                    0x02, 0x03, 0xAA, 0xAA, 0x00, 0x00, 0x03, 0x2D, 0x00, 0x00, 0x00, 0x00, 0xEE, 0x02, 0x00, 0x00,
                    0x00, 0x00,
                ]
            ])
        // destination_reached_repeated: fixed on motor 0, 5000 ms, still channel 2.
        #expect(
            sent(try navigation.update(bearing(300, .destinationReachedRepeated), now: at(200))) == [
                [
                    0x02, 0x09, 0xAA, 0xAA, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x88, 0x13, 0x00, 0x00,
                    0x00, 0x00,
                ]
            ])
    }

    @Test func noPresetMeansNoVibrationButNavigationStaysActive() throws {
        var navigation = try navigating()
        #expect(sent(try navigation.update(.silent, now: at(200))) == [Self.stopNavigationChannel])
        #expect(navigation.state == .navigating)
        // Intensity 0 also stops the channel, as FSLib does.
        let zero = BeltNavigation.Signal(direction: 10, preset: .navigation, intensity: 0)
        #expect(sent(try navigation.update(zero, now: at(400))) == [Self.stopNavigationChannel])
        #expect(navigation.state == .navigating)
    }

    @Test func startingWithoutVibrationStillSwitchesToAppMode() throws {
        var navigation = connected(.wait)
        #expect(sent(try navigation.start(.silent, now: t0)) == [Self.modeApp])
        #expect(sent(navigation.modeChanged(to: .app, now: at(30))) == [Self.stopNavigationChannel])
    }

    @Test(arguments: [
        (BeltNavigation.Signal(direction: 0, preset: .directionNotification), "'signal'"),
        (BeltNavigation.Signal(direction: 0, preset: .warning), "'signal'"),
        (BeltNavigation.Signal(direction: 0, preset: .destinationReached), "'signal'"),
        (BeltNavigation.Signal(direction: 3, orientation: .motorIndex), "'orientation'"),
        (BeltNavigation.Signal(direction: 0, preset: .navigation, intensity: 101), "'intensity'"),
    ])
    func invalidSignalsAreRefusedWithoutChangingAnything(signal: BeltNavigation.Signal, field: String) throws {
        var navigation = connected(.wait)
        #expect {
            _ = try navigation.start(signal, now: t0)
        } throws: { error in
            (error as? CommandError)?.code == .invalidValue && (error as? CommandError)?.message.contains(field) == true
        }
        #expect(navigation.state == .stopped)
        #expect(navigation.signal == nil)

        var active = try navigating()
        #expect(throws: CommandError.self) { _ = try active.update(signal, now: at(500)) }
        #expect(active.signal == bearing(90))
    }

    @Test func startWhileNavigatingIsAnUpdate() throws {
        var navigation = try navigating()
        let actions = try navigation.start(bearing(180), now: at(150))
        #expect(actions == [.send(.vibrate(try BeltSignalPreset.navigation.configuration(direction: 180, channel: 2)))])
        #expect(navigation.signal == bearing(180))
    }

    @Test func updateWhileStoppedIsRefused() {
        var navigation = connected(.app)
        #expect(throws: CommandError(.invalidValue, "navigation is stopped; start it first")) {
            _ = try navigation.update(bearing(10), now: t0)
        }
    }

    // MARK: Coalescing

    @Test func updatesWithinHundredMillisecondsAreCoalescedIntoOneSendOfTheLast() throws {
        var navigation = try navigating(0)  // sent at t0
        #expect(try navigation.update(bearing(10), now: at(10)) == [.flushAfter(.milliseconds(90))])
        #expect(try navigation.update(bearing(20), now: at(20)).isEmpty)
        #expect(try navigation.update(bearing(30), now: at(30)).isEmpty)
        // Too early: the caller is told to wait the rest.
        #expect(navigation.flush(now: at(60)) == [.flushAfter(.milliseconds(40))])
        #expect(sent(navigation.flush(now: at(100))) == [Self.navigationSignal(30)])
        // Nothing left to flush.
        #expect(navigation.flush(now: at(150)).isEmpty)
        // The flush counts as a send: the next update 100 ms later goes out at once.
        #expect(sent(try navigation.update(bearing(40), now: at(200))) == [Self.navigationSignal(40)])
        #expect(try navigation.update(bearing(50), now: at(250)) == [.flushAfter(.milliseconds(50))])
    }

    @Test func updatesSpacedByHundredMillisecondsGoOutAtOnce() throws {
        var navigation = try navigating(0)
        #expect(sent(try navigation.update(bearing(10), now: at(100))) == [Self.navigationSignal(10)])
        #expect(sent(try navigation.update(bearing(20), now: at(250))) == [Self.navigationSignal(20)])
    }

    @Test func aHeldBackUpdateIsDroppedWhenNavigationPauses() throws {
        var navigation = try navigating(0)
        #expect(try navigation.update(bearing(10), now: at(10)) == [.flushAfter(.milliseconds(90))])
        #expect(sent(navigation.pause()) == [Self.modePause])
        #expect(navigation.flush(now: at(100)).isEmpty)
        // The update is kept for the resume.
        #expect(navigation.signal == bearing(10))
    }

    @Test func theSignalAfterAModeChangeIsCoalescedToo() throws {
        var navigation = try navigating(0)  // sent at t0
        #expect(sent(navigation.pause()) == [Self.modePause])
        #expect(navigation.modeChanged(to: .pause, now: at(20)).isEmpty)
        #expect(sent(try navigation.resume(now: at(30))) == [Self.modeApp])
        #expect(navigation.modeChanged(to: .app, now: at(50)) == [.flushAfter(.milliseconds(50))])
        #expect(sent(navigation.flush(now: at(100))) == [Self.navigationSignal(0)])
    }

    // MARK: Pause, resume, stop

    @Test func pauseAndStopSwitchTheBeltModes() throws {
        var navigation = try navigating()
        let pause = navigation.pause()
        #expect(pause == [.send(.changeMode(.pause)), .publishState(.paused)])
        #expect(sent(pause) == [Self.modePause])
        #expect(navigation.modeChanged(to: .pause, now: at(200)).isEmpty)
        let stop = navigation.stop()
        #expect(stop == [.send(.changeMode(.wait)), .publishState(.stopped)])
        #expect(sent(stop) == [Self.modeWait])
        #expect(navigation.signal == nil)
        #expect(navigation.modeChanged(to: .wait, now: at(300)).isEmpty)
    }

    @Test func resumeRestoresAppModeAndTheSignal() throws {
        var navigation = try pausedByNavigation()
        #expect(try navigation.update(bearing(200), now: at(300)).isEmpty)  // kept, not sent while paused
        let resume = try navigation.resume(now: at(400))
        #expect(resume == [.send(.changeMode(.app)), .publishState(.navigating)])
        #expect(sent(navigation.modeChanged(to: .app, now: at(450))) == [Self.navigationSignal(200)])
    }

    @Test func requestsThatDoNotApplyAreIgnoredLikeFSLib() throws {
        var navigation = connected(.app)
        #expect(navigation.pause().isEmpty)
        #expect(navigation.stop().isEmpty)
        #expect(throws: CommandError(.invalidValue, "navigation is stopped; nothing to resume")) {
            _ = try navigation.resume(now: t0)
        }
        var active = try navigating()
        #expect(try active.resume(now: at(200)).isEmpty)
        _ = active.pause()
        #expect(active.pause().isEmpty)
        #expect(active.state == .paused)
    }

    @Test func stopLeavesAPauseNavigationDidNotSetAlone() throws {
        var navigation = try navigating()
        // The user switched to compass and then paused the belt there.
        #expect(navigation.modeChanged(to: .compass, now: at(200)) == [.publishState(.paused)])
        #expect(navigation.modeChanged(to: .pause, now: at(300)).isEmpty)
        #expect(navigation.stop() == [.publishState(.stopped)])
    }

    @Test func stopBeforeTheBeltConfirmedAppModeSendsItBackToWait() throws {
        var navigation = connected(.wait)
        #expect(sent(try navigation.start(bearing(90), now: t0)) == [Self.modeApp])
        #expect(navigation.stop() == [.publishState(.stopped)])  // the belt still reports wait
        #expect(sent(navigation.modeChanged(to: .app, now: at(50))) == [Self.modeWait])
    }

    // MARK: Belt mode reports

    @Test func waitStopsNavigation() throws {
        var navigation = try navigating()
        #expect(navigation.modeChanged(to: .wait, now: at(200)) == [.publishState(.stopped)])
        #expect(navigation.signal == nil)
    }

    @Test(arguments: [BeltMode.compass, .calibration, .crossing, .pause])
    func otherModesPauseNavigation(mode: BeltMode) throws {
        var navigation = try navigating()
        #expect(navigation.modeChanged(to: mode, now: at(200)) == [.publishState(.paused)])
        #expect(navigation.signal == bearing(90))
    }

    @Test func standbyChangesNothing() throws {
        var navigation = try navigating()
        #expect(navigation.modeChanged(to: .standby, now: at(200)).isEmpty)
        #expect(navigation.state == .navigating)
    }

    @Test func appModeWhilePausedIsTurnedBackToPause() throws {
        var navigation = try pausedByNavigation()
        #expect(sent(navigation.modeChanged(to: .app, now: at(300))) == [Self.modePause])
        #expect(navigation.state == .paused)
    }

    @Test func whileStoppedTheBeltIsLeftToTheOtherCommands() {
        var navigation = connected(.wait)
        #expect(navigation.modeChanged(to: .app, now: t0).isEmpty)
        #expect(
            navigation.button(
                BeltButtonEvent(button: .pause, longPress: false, previousMode: .app, newMode: .app), now: t0
            ).isEmpty)
        #expect(navigation.modeChanged(to: .pause, now: t0).isEmpty)
        #expect(navigation.state == .stopped)
    }

    @Test func modeReportsBeforeTheHandshakeAreIgnored() throws {
        var navigation = BeltNavigation()
        _ = try navigation.start(bearing(90), now: t0)
        #expect(navigation.modeChanged(to: .wait, now: t0).isEmpty)
        #expect(navigation.state == .navigating)
    }

    // MARK: Buttons

    @Test func pausePressInAppModePausesAndAgainInPauseResumes() throws {
        var navigation = try navigating()
        let pausePress = navigation.button(
            BeltButtonEvent(button: .pause, longPress: false, previousMode: .app, newMode: .app), now: at(200))
        #expect(pausePress == [.send(.changeMode(.pause)), .publishState(.paused)])
        #expect(sent(pausePress) == [Self.modePause])
        #expect(navigation.modeChanged(to: .pause, now: at(250)).isEmpty)

        let resumePress = navigation.button(
            BeltButtonEvent(button: .pause, longPress: false, previousMode: .pause, newMode: .pause), now: at(400))
        #expect(resumePress == [.send(.changeMode(.app)), .publishState(.navigating)])
        #expect(sent(resumePress) == [Self.modeApp])
        #expect(sent(navigation.modeChanged(to: .app, now: at(450))) == [Self.navigationSignal(90)])
    }

    @Test func compassPressWhileNavigatingPausesWithoutTouchingTheMode() throws {
        var navigation = try navigating()
        let press = navigation.button(
            BeltButtonEvent(button: .compass, longPress: false, previousMode: .app, newMode: .compass), now: at(200))
        #expect(press == [.publishState(.paused)])
        #expect(navigation.beltMode == .compass)
        // A later FE06 report of the same mode is no change.
        #expect(navigation.modeChanged(to: .compass, now: at(250)).isEmpty)
        // Resuming from compass asks for app mode again.
        #expect(sent(try navigation.resume(now: at(300))) == [Self.modeApp])
    }

    @Test func powerOffPressPausesNavigation() throws {
        var navigation = try navigating()
        #expect(
            navigation.button(
                BeltButtonEvent(button: .power, longPress: true, previousMode: .app, newMode: .standby), now: at(200))
                == [.publishState(.paused)])
    }

    @Test func powerShortPressInAppModeChangesNothing() throws {
        var navigation = try navigating()
        #expect(
            navigation.button(
                BeltButtonEvent(button: .power, longPress: false, previousMode: .app, newMode: .app), now: at(200)
            ).isEmpty)
        #expect(navigation.state == .navigating)
    }

    @Test(arguments: [BeltNavigation.State.stopped, .navigating])
    func homeIsPublishedAndChangesNothingUnlessPaused(state: BeltNavigation.State) throws {
        var navigation = state == .stopped ? connected(.app) : try navigating()
        let mode = navigation.beltMode!
        let actions = navigation.button(
            BeltButtonEvent(button: .home, longPress: false, previousMode: mode, newMode: mode), now: at(500))
        #expect(actions == [.publishEvent("home_button")])
        #expect(navigation.state == state)
    }

    /// FSLib: Home resumes a paused navigation (app mode, then the signal once the belt confirms it).
    @Test func homeResumesAPausedNavigation() throws {
        var navigation = try pausedByNavigation()
        let actions = navigation.button(
            BeltButtonEvent(button: .home, longPress: false, previousMode: .pause, newMode: .pause), now: at(500))
        #expect(actions.first == .publishEvent("home_button"))
        #expect(sent(actions) == [Self.modeApp])
        #expect(states(actions) == [.navigating])
        #expect(navigation.state == .navigating)
    }

    @Test func outOfSyncPausePressesRealignTheBelt() throws {
        var paused = try pausedByNavigation()
        #expect(
            sent(
                paused.button(
                    BeltButtonEvent(button: .pause, longPress: false, previousMode: .app, newMode: .app), now: at(300)))
                == [Self.modePause])
        #expect(paused.state == .paused)
        var active = try navigating()
        #expect(
            sent(
                active.button(
                    BeltButtonEvent(button: .pause, longPress: false, previousMode: .pause, newMode: .pause),
                    now: at(300))) == [Self.modeApp])
        #expect(active.state == .navigating)
    }

    // MARK: Reconnect

    @Test func navigationSurvivesADisconnectAndIsRestored() throws {
        var navigation = try navigating()
        navigation.disconnected()
        #expect(navigation.state == .navigating)
        #expect(navigation.isConnected == false)
        // Updated while away: nothing to send, the newest signal is kept.
        #expect(try navigation.update(bearing(135), now: at(1000)).isEmpty)
        // The belt went to wait when the link dropped.
        #expect(sent(navigation.connected(mode: .wait, now: at(5000))) == [Self.modeApp])
        #expect(sent(navigation.modeChanged(to: .app, now: at(5030))) == [Self.navigationSignal(135)])
    }

    @Test func startWhileAwayTakesEffectOnConnect() throws {
        var navigation = BeltNavigation()
        #expect(try navigation.start(bearing(90), now: t0) == [.publishState(.navigating)])
        #expect(sent(navigation.connected(mode: .app, now: at(10))) == [Self.navigationSignal(90)])
    }

    @Test func aPausedNavigationIsRestoredAsPauseMode() throws {
        var navigation = try pausedByNavigation()
        navigation.disconnected()
        #expect(sent(navigation.connected(mode: .wait, now: at(5000))) == [Self.modePause])
        #expect(navigation.modeChanged(to: .pause, now: at(5030)).isEmpty)
        // That pause is navigation's: stop returns the belt to wait.
        #expect(sent(navigation.stop()) == [Self.modeWait])
    }

    @Test func aStoppedNavigationRestoresNothing() {
        var navigation = BeltNavigation()
        #expect(navigation.connected(mode: .app, now: t0).isEmpty)
    }

    // MARK: Notifications

    @Test func directionNotificationUsesTheTemporaryChannel() throws {
        var navigation = connected(.app)
        // channel 0, continuous, default intensity, bearing 90, once, 1000 ms.
        #expect(
            sent(try navigation.notify(.direction(90))) == [
                [
                    0x00, 0x01, 0xAA, 0xAA, 0x00, 0x00, 0x03, 0x5A, 0x00, 0x00, 0x00, 0x01, 0xE8, 0x03, 0x00, 0x00,
                    0x00, 0x00,
                ]
            ])
        #expect(
            sent(try navigation.notify(.direction(-10, orientation: .angle, intensity: 60)))[0][2...8] == [
                0x3C, 0x00, 0x00, 0x00, 0x02, 0x5E, 0x01,
            ])
        #expect(throws: CommandError.self) { _ = try navigation.notify(.direction(1, orientation: .binaryMask)) }
    }

    @Test func warnings() throws {
        var navigation = connected(.wait)
        // warning wave, 25 %, motor 0, twice, 500 ms, exclusive.
        #expect(
            sent(try navigation.notify(.warning(critical: false))) == [
                [
                    0x00, 0x06, 0x19, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x02, 0xF4, 0x01, 0x00, 0x00,
                    0x01, 0x00,
                ]
            ])
        // single long, mask 0x1111, three times, 700 ms, exclusive.
        #expect(
            sent(try navigation.notify(.warning(critical: true))) == [
                [
                    0x00, 0x03, 0xAA, 0xAA, 0x00, 0x00, 0x00, 0x11, 0x11, 0x00, 0x00, 0x03, 0xBC, 0x02, 0x00, 0x00,
                    0x01, 0x00,
                ]
            ])
    }

    private static let destinationReached: [UInt8] = [
        0x00, 0x09, 0xAA, 0xAA, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x01, 0xC4, 0x09, 0x00, 0x00, 0x01, 0x00,
    ]

    @Test func destinationReachedCanStopNavigationFirst() throws {
        var navigation = try navigating()
        let actions = try navigation.notify(.destinationReached(stopNavigation: true))
        #expect(states(actions) == [.stopped])
        #expect(sent(actions) == [Self.modeWait, Self.destinationReached])
        #expect(navigation.state == .stopped)
    }

    @Test func destinationReachedWithoutStopKeepsNavigating() throws {
        var navigation = try navigating()
        #expect(sent(try navigation.notify(.destinationReached(stopNavigation: false))) == [Self.destinationReached])
        #expect(navigation.state == .navigating)
    }

    @Test func batteryLevelIsTheSystemSignal() throws {
        var navigation = connected(.compass)
        #expect(sent(try navigation.notify(.batteryLevel)) == [[0x20, 0x02]])
    }

    @Test func notificationsNeedABelt() throws {
        var navigation = try navigating()
        navigation.disconnected()
        #expect(throws: CommandError.self) { _ = try navigation.notify(.destinationReached(stopNavigation: true)) }
        #expect(navigation.state == .navigating)
    }
}

extension BeltNavigationTests {
    /// A resume that overtakes the belt's confirmation of the pause: the late confirmation is stale and
    /// must neither pause navigation again nor leave the belt in pause.
    @Test func aResumeBeforeThePauseIsConfirmedStillEndsInAppMode() throws {
        var navigation = BeltNavigation()
        let now = ContinuousClock.now
        _ = navigation.connected(mode: .app, now: now)
        _ = try navigation.start(BeltNavigation.Signal(direction: 90), now: now)
        #expect(navigation.pause() == [.send(.changeMode(.pause)), .publishState(.paused)])
        let resumed = try navigation.resume(now: now + .seconds(1))
        #expect(resumed == [.send(.changeMode(.app)), .publishState(.navigating)])
        #expect(navigation.modeChanged(to: .pause, now: now + .seconds(2)) == [], "the pause confirmation is stale")
        #expect(navigation.state == .navigating)
        let signal = navigation.modeChanged(to: .app, now: now + .seconds(3))
        #expect(signal.count == 1)
        if case .send(.vibrate(let configuration)) = signal.first {
            #expect(configuration.orientationValue == 90)
        } else {
            Issue.record("expected the navigation signal, got \(signal)")
        }
    }
}
