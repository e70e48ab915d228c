import Testing

@testable import Bridge

/// Issue #58, item 5: topics.md says the sweep clears the Home Assistant configs of "a device off the allow list",
/// but a gateway started from `auto_connect: all` onto an allow list adopted what its earlier run served, and an
/// adoption kept a device's configs whatever the policy: an Activ5 off the list kept its 13 configs for ever. The
/// list is the users' word on which devices they want, so topics.md is right; the rule is one pure function.
struct AnnouncedDevicesTests {
    static let listed = "00:11:22:33:44:01"
    static let other = "00:11:22:33:44:02"

    @Test func anAllowListKeepsOnlyItsOwnAdoptedOrNot() {
        let policy = AutoConnectPolicy.allowList([Self.listed])
        #expect(policy.keepsAnnounced(Self.listed, adopted: false))
        #expect(policy.keepsAnnounced(Self.listed.lowercased(), adopted: false), "an address in any case")
        #expect(!policy.keepsAnnounced(Self.other, adopted: true), "adopted, off the list: swept")
        #expect(!policy.keepsAnnounced(Self.other, adopted: false))
    }

    @Test func underAdoptionAnAdoptedOrAllowedDeviceIsKept() {
        let policy = AutoConnectPolicy.adopted([Self.listed])
        #expect(policy.keepsAnnounced(Self.listed, adopted: false), "allowed")
        #expect(policy.keepsAnnounced(Self.other, adopted: true), "adopted")
        #expect(!policy.keepsAnnounced(Self.other, adopted: false), "neither: swept")
    }

    /// `none` connects nothing by itself, but a device adopted by a request keeps its entities between requests;
    /// `all` keeps every device.
    @Test func noneKeepsTheAdoptedAndAllKeepsEveryDevice() {
        #expect(AutoConnectPolicy.none.keepsAnnounced(Self.other, adopted: true))
        #expect(!AutoConnectPolicy.none.keepsAnnounced(Self.other, adopted: false))
        #expect(AutoConnectPolicy.all.keepsAnnounced(Self.other, adopted: false))
    }
}
