import Peripherals
import Testing

@testable import Bridge

struct BeltNavigationStoreTests {
    private let signal = BeltNavigation.Signal(
        direction: 90, orientation: .bearing, preset: .navigation, intensity: nil)

    @Test func onlyABeltServedBeforeTakesRequestsWithoutASession() throws {
        let store = BeltNavigationStore()
        #expect(
            try store.update("unknown") { (navigation: inout BeltNavigation) throws(CommandError) in navigation.stop() }
                == nil)

        store.keep(store.take("belt1"), for: "belt1")
        let result = try store.update("belt1") { (navigation: inout BeltNavigation) throws(CommandError) in
            try navigation.handle(.start(signal), now: .now)
        }
        // No belt: nothing to send, only the state (and the signal) to publish.
        #expect(result?.actions == [.publishState(.navigating)])
        #expect(result?.signal == signal)
        #expect(store.take("belt1").state == .navigating)
        #expect(store.take("belt1").signal == signal)
    }

    @Test func aRefusedRequestChangesNothing() throws {
        let store = BeltNavigationStore()
        store.keep(BeltNavigation(), for: "belt1")
        #expect(throws: CommandError.self) {
            try store.update("belt1") { (navigation: inout BeltNavigation) throws(CommandError) in
                try navigation.handle(.resume, now: .now)
            }
        }
        #expect(store.take("belt1").state == .stopped)
    }

    // MARK: What the broker says (another gateway's, or this one's before a restart)

    @Test func aBeltNeverServedHereStartsWithTheNavigationHeardOnTheBroker() {
        let store = BeltNavigationStore()
        store.heard("belt1", state: .navigating)
        #expect(store.take("belt1").state == .stopped, "half an intent (no signal yet) is not acted on")
        store.heard("belt1", signal: signal)
        let navigation = store.take("belt1")
        #expect(navigation.state == .navigating)
        #expect(navigation.signal == signal)
    }

    @Test func aPausedNavigationIsTakenOverPaused() {
        let store = BeltNavigationStore()
        store.heard("belt1", signal: signal)
        store.heard("belt1", state: .paused)
        #expect(store.take("belt1").state == .paused)
        #expect(store.take("belt1").signal == signal)
    }

    @Test func theNewerOfKeptAndHeardWins() throws {
        let store = BeltNavigationStore()
        store.heard("belt1", signal: signal)
        store.heard("belt1", state: .navigating)
        // Kept after hearing: this gateway's own later state (it stopped navigation) wins.
        store.keep(BeltNavigation(), for: "belt1")
        #expect(store.take("belt1").state == .stopped)
        // Heard after keeping: another gateway ran the belt since.
        store.heard("belt1", state: .navigating)
        #expect(store.take("belt1").state == .navigating)
        // Stopped elsewhere: an empty signal and a stopped state.
        store.heard("belt1", signal: nil)
        store.heard("belt1", state: .stopped)
        #expect(store.take("belt1").state == .stopped)
        #expect(store.take("belt1").signal == nil)
    }

    @Test func theSignalTravelsInTheNavigationCommandsOwnFields() throws {
        let angled = BeltNavigation.Signal(direction: -45, orientation: .angle, preset: .navigation, intensity: 30)
        let text = NavigationIntent.payload(angled)
        #expect(text == #"{"direction":-45,"intensity":30,"orientation":"angle","signal":"navigation"}"#)
        #expect(NavigationIntent.signal(from: Array(text.utf8)) == .some(angled))
        #expect(NavigationIntent.payload(.silent) == #"{"direction":0,"orientation":"bearing","signal":"none"}"#)
        #expect(NavigationIntent.signal(from: Array(NavigationIntent.payload(.silent).utf8)) == .some(.silent))
        #expect(NavigationIntent.signal(from: []) == .some(nil), "empty: no signal")
        #expect(
            NavigationIntent.signal(from: Array(#"{"signal":"warning"}"#.utf8)) == nil,
            "a one-shot preset is malformed here")
        #expect(NavigationIntent.signal(from: Array("not json".utf8)) == nil)
    }
}
