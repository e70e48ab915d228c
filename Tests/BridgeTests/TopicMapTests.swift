import Testing

@testable import Bridge

struct TopicMapTests {
    @Test func withoutABaseTopicTheTopicsAreTheClassicOnes() {
        let topics = TopicMap(gateway: "gw")
        #expect(topics.status == "gatt2mqtt/gw/status")
        #expect(topics.adapter("hci1") == "gatt2mqtt/gw/adapter/hci1")
        #expect(topics.device(.belt, "aa", "heading") == "belt/aa/heading")
        #expect(topics.commandFilter(.cpr) == "cpr/+/cmd/+")
        #expect(topics.parseCommand("belt/aa/cmd/mode")! == (.belt, "aa", "mode"))
        #expect(topics.identity == "gw")
    }

    @Test func aBaseTopicPrefixesEveryTopicAndOnlyPrefixedTopicsParse() {
        let topics = TopicMap(gateway: "gw", baseTopic: "site-a/floor1")
        #expect(topics.status == "site-a/floor1/gatt2mqtt/gw/status")
        #expect(topics.requestFilter == "site-a/floor1/gatt2mqtt/gw/request/+")
        #expect(topics.device(.a5, "bb", "force") == "site-a/floor1/a5/bb/force")
        #expect(topics.infoFilter(.grip) == "site-a/floor1/grip/+/info")
        #expect(topics.parseCommand("site-a/floor1/belt/aa/cmd/mode")! == (.belt, "aa", "mode"))
        #expect(topics.parseCommand("belt/aa/cmd/mode") == nil)
        #expect(topics.parseInfo("site-a/floor1/cpr/cc/info")! == (.cpr, "cc"))
        #expect(topics.parseRequest("site-a/floor1/gatt2mqtt/gw/request/scan") == "scan")
        #expect(topics.parseRequest("gatt2mqtt/gw/request/scan") == nil)
        #expect(topics.identity == "site-a_floor1_gw")
    }

    /// Ids and command names from strangers' topics are checked before anything keeps or logs them: any Unicode
    /// up to 64 KiB used to reach the logs and tables.
    @Test func idsAndCommandNamesNoDeviceOrCommandMayHaveAreNotParsed() {
        let topics = TopicMap(gateway: "gw")
        let long = String(repeating: "a", count: 65)
        for topic in [
            "belt/\(long)/cmd/mode", "belt/AA/cmd/mode", "belt/é/cmd/mode", "belt//cmd/mode", "belt/aa/cmd/Mode",
            "belt/aa/cmd/\(long)", "belt/aa/cmd/mode!",
        ] {
            #expect(topics.parseCommand(topic) == nil, "\(topic)")
            #expect(topics.isMalformedCommand(topic), "\(topic)")
        }
        #expect(
            !topics.isMalformedCommand("belt/aa/cmd/fly"), "an unknown but well-formed name is the family's to answer")
        #expect(!topics.isMalformedCommand("lamp/aa/cmd/mode"), "not a family of this gateway's")
        #expect(topics.parseLeaf("belt/\(long)/heading") == nil && topics.parseLeaf("belt/Ä/info") == nil)
        #expect(topics.parseLeaf("belt/front-belt/desired")! == (.belt, "front-belt", "desired"))
    }

    /// Topics are bytes: a `/`, `+`, `#` or `$` followed by a combining mark is one Swift character that is none of
    /// them, and used to pass the checks and hide a level separator (TopicParsingFuzz found these).
    @Test func aCombiningMarkHidesNoSeparatorOrWildcard() {
        for base in ["#\u{301}", "a/+\u{301}", "$\u{301}Ps", "/\u{301}", "a//\u{301}b"] {
            #expect(!TopicMap.isValidBaseTopic(base), "\(base.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        let topics = TopicMap(gateway: "gw")
        #expect(topics.parseLeaf("a5/aabbcc/cm/\u{301}x") == nil, "four levels, not three")
        #expect(topics.parseRequest("gatt2mqtt/gw/request/scan/\u{301}x") == nil)
    }

    @Test func fleetTopicsAreTheGatewaysOwnAndParseBack() {
        let topics = TopicMap(gateway: "gw-a", baseTopic: "site")
        #expect(topics.claim(.belt, "aa") == "site/gatt2mqtt/gw-a/claim/belt/aa")
        #expect(topics.claimFilter == "site/gatt2mqtt/+/claim/+/+")
        #expect(topics.claimFilter(device: "cpr/cc") == "site/gatt2mqtt/+/claim/cpr/cc")
        #expect(topics.parseClaim("site/gatt2mqtt/gw-b/claim/cpr/cc")! == ("gw-b", .cpr, "cc"))
        #expect(topics.parseClaim("site/gatt2mqtt/gw-b/claim/lamp/cc") == nil)
        #expect(topics.parseClaim("gatt2mqtt/gw-b/claim/cpr/cc") == nil)
        #expect(topics.fleetHeartbeat == "site/gatt2mqtt/gw-a/fleet")
        #expect(topics.parseFleetHeartbeat("site/gatt2mqtt/gw-b/fleet") == "gw-b")
        #expect(topics.parseFleetHeartbeat("site/gatt2mqtt/gw-b/status") == nil)
    }

    @Test func everyGatewaysLeavesRequestsAndTopicsWithoutTheBase() {
        let topics = TopicMap(gateway: "gw-a", baseTopic: "site")
        #expect(topics.everyGateway("health") == "site/gatt2mqtt/+/health")
        #expect(topics.request("scan") == "site/gatt2mqtt/gw-a/request/scan")
        #expect(topics.requestFilter == "site/gatt2mqtt/gw-a/request/+")
        #expect(topics.fleetHeartbeatFilter == "site/gatt2mqtt/+/fleet")
        #expect(topics.withoutBase("site/belt/aa/heading") == "belt/aa/heading")
        #expect(topics.withoutBase("other/belt/aa/heading") == nil)
        #expect(TopicMap(gateway: "gw-a").withoutBase("belt/aa/heading") == "belt/aa/heading")
    }

    @Test(arguments: [
        ("", true), ("site", true), ("a/b/c", true), ("a/+/b", false), ("#", false), ("a//b", false), ("/a", false),
        ("a/", false), ("$SYS", false),
    ])
    func baseTopicsAreCheckedLevelByLevel(base: String, valid: Bool) {
        #expect(TopicMap.isValidBaseTopic(base) == valid)
    }
}
