import Testing

@testable import Bridge

struct AdapterChoiceTests {
    let choice = AdapterChoice(adapters: ["hci0", "hci1", "hci2"], slots: 2)

    func seen(_ adapter: String, _ rssi: Int16?, paired: Bool = false) -> AdapterChoice.Sighting {
        AdapterChoice.Sighting(adapter: adapter, rssi: rssi, paired: paired)
    }

    @Test func theStrongestSignalWins() {
        #expect(choice.choose([seen("hci0", -80), seen("hci1", -55), seen("hci2", -70)], load: [:]) == "hci1")
    }

    @Test func aFullAdapterIsPassedOverAndNoneIsChosenWhenAllAreFull() {
        let sightings = [seen("hci0", -80), seen("hci1", -55)]
        #expect(choice.choose(sightings, load: ["hci1": 2]) == "hci0")
        #expect(choice.choose(sightings, load: ["hci0": 2, "hci1": 2]) == nil)
        #expect(choice.choose([], load: [:]) == nil)
    }

    /// btvirt's controllers report no signal: the configured order decides, so slots fill in that order.
    @Test func withoutSignalsOrWithEqualOnesTheConfiguredOrderDecides() {
        #expect(choice.choose([seen("hci2", nil), seen("hci1", nil)], load: [:]) == "hci1")
        #expect(choice.choose([seen("hci2", -60), seen("hci0", -60)], load: [:]) == "hci0")
        #expect(choice.choose([seen("hci0", nil), seen("hci2", -90)], load: [:]) == "hci2")
    }

    /// A bond is kept by one controller: a paired device is only connected through an adapter it is paired on.
    @Test func aBondKeepsTheDeviceOnItsAdapterEvenWhenItIsFull() {
        let sightings = [seen("hci0", -50), seen("hci1", -85, paired: true)]
        #expect(choice.choose(sightings, load: [:]) == "hci1")
        #expect(choice.choose(sightings, load: ["hci1": 2]) == nil)
    }
}
