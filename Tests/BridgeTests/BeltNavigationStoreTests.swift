import Peripherals
import Testing

@testable import Bridge

struct BeltNavigationStoreTests {
    private let signal = BeltNavigation.Signal(direction: 90, orientation: .bearing, preset: .navigation, intensity: nil)

    @Test func onlyABeltServedBeforeTakesRequestsWithoutASession() throws {
        let store = BeltNavigationStore()
        #expect(try store.update("unknown") { (navigation: inout BeltNavigation) throws(CommandError) in navigation.stop() } == nil)

        store.keep(store.take("belt1"), for: "belt1")
        let actions = try store.update("belt1") { (navigation: inout BeltNavigation) throws(CommandError) in
            try navigation.handle(.start(signal), now: .now)
        }
        // No belt: nothing to send, only the state to publish.
        #expect(actions == [.publishState(.navigating)])
        #expect(store.take("belt1").state == .navigating)
        #expect(store.take("belt1").signal == signal)
    }

    @Test func aRefusedRequestChangesNothing() throws {
        let store = BeltNavigationStore()
        store.keep(BeltNavigation(), for: "belt1")
        #expect(throws: CommandError.self) {
            try store.update("belt1") { (navigation: inout BeltNavigation) throws(CommandError) in try navigation.handle(.resume, now: .now) }
        }
        #expect(store.take("belt1").state == .stopped)
    }
}
