import Testing

@testable import Bridge

/// `gatt2mqtt/<gateway>/adapter` from what BlueZ shows.
struct AdapterStatusTests {
    @Test func theAdapterPowerDecidesWhileBlueZRunsAndLetsUsIn() {
        #expect(AdapterStatus.of(powered: true, serviceRunning: true, accessDenied: false) == .powered)
        #expect(AdapterStatus.of(powered: false, serviceRunning: true, accessDenied: false) == .off)
    }

    @Test func noBluetoothdOrNoSuchAdapterIsMissing() {
        #expect(AdapterStatus.of(powered: nil, serviceRunning: true, accessDenied: false) == .missing)
        #expect(AdapterStatus.of(powered: true, serviceRunning: false, accessDenied: false) == .missing)
        #expect(AdapterStatus.of(powered: nil, serviceRunning: false, accessDenied: false) == .missing)
    }

    @Test func aRefusingBusPolicyIsUnauthorizedWhateverElseIsKnown() {
        #expect(AdapterStatus.of(powered: nil, serviceRunning: false, accessDenied: true) == .unauthorized)
        #expect(AdapterStatus.of(powered: true, serviceRunning: true, accessDenied: true) == .unauthorized)
    }

    @Test func theSummaryIsUsableWhenOneAdapterIs() {
        #expect(AdapterStatus.summary([.missing, .off, .powered]) == .powered)
        #expect(AdapterStatus.summary([.missing, .unauthorized, .off]) == .unauthorized)
        #expect(AdapterStatus.summary([.missing, .off]) == .off)
        #expect(AdapterStatus.summary([.missing]) == .missing)
    }
}
