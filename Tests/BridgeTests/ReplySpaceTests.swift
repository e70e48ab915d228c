import Testing

@testable import Bridge

/// An answer goes out with the gateway's broker rights: only into the reply space, never onto a topic a stranger
/// chose for it (issue #43: `cmnd/plug/POWER`).
struct ReplySpaceTests {
    private let space = ReplySpace(topics: TopicMap(gateway: "gw", baseTopic: "site"))

    @Test func theGatewaysOwnReplyTopicsAndReplyAreTaken() {
        for topic in [
            "reply/dashboard/1", "reply", "site/belt/aa/reply", "site/a5/bb/reply", "site/gatt2mqtt/gw/response/scan",
            "site/gatt2mqtt/gw/live/page-1/reply", "site/gatt2mqtt/other/live/page-2/reply",
        ] {
            #expect(space.refusal(of: topic) == nil, "\(topic)")
        }
    }

    @Test func anythingElseIsOutside() {
        for topic in [
            "cmnd/plug/POWER", "nodered/answers", "belt/aa/reply", "site/gatt2mqtt/other/response/scan", "replies/x",
            "site/reply/x", "zigbee2mqtt/lamp/set",
        ] {
            #expect(space.refusal(of: topic) == .outside, "\(topic)")
        }
    }

    @Test func topicsOthersReadAsStateAreRefusedWhatTheSettingSays() {
        let open = ReplySpace(topics: TopicMap(gateway: "gw", baseTopic: "site"), filters: [TopicFilter("#")!])
        for topic in [
            "site/gatt2mqtt/gw/status", "site/gatt2mqtt/gw-b/claim/belt/aa", "site/belt/aa/connection",
            "site/belt/aa/cmd/mode",
            "homeassistant/sensor/x/config", "site/gatt2mqtt/\u{301}/gw/status",
        ] {
            #expect(open.refusal(of: topic) == .readAsState, "\(topic)")
        }
        #expect(open.refusal(of: "cmnd/plug/POWER") == nil, "the setting opens the rest")
    }

    /// A declared family is the gateway's as much as a written one: its devices' reply topics are taken, and their
    /// state is never written, whatever the setting opens (it was, before: the space knew the written families only).
    @Test func aDeclaredFamilysReplyIsTakenAndItsStateRefused() {
        let topics = TopicMap(
            gateway: "gw", baseTopic: "site", families: DeviceFamily.allCases + [DeviceFamily(declaring: "scale")])
        #expect(ReplySpace(topics: topics).refusal(of: "site/scale/aa/reply") == nil)
        let open = ReplySpace(topics: topics, filters: [TopicFilter("#")!])
        for topic in ["site/scale/aa/measurement", "site/scale/aa/connection", "site/scale/aa/cmd/tare"] {
            #expect(open.refusal(of: topic) == .readAsState, "\(topic)")
        }
        #expect(
            ReplySpace(topics: TopicMap(gateway: "gw", baseTopic: "site")).refusal(of: "site/scale/aa/reply")
                == .outside)
    }

    @Test func wildcardsEmptyLevelsAndOtherNonTopicsAreRefused() {
        for topic in [
            "", "reply/+", "reply/#", "reply/a+b", "reply//x", "reply/x/", "/reply", "$SYS/broker", "reply/\0",
            "reply/+\u{301}", "reply/" + String(repeating: "a", count: 1020),
        ] {
            #expect(space.refusal(of: topic) == .malformed, "\(topic.prefix(20))")
        }
    }

    @Test func theSettingReplacesReplyButNotTheGatewaysOwn() {
        let space = ReplySpace(topics: TopicMap(gateway: "gw"), filters: [TopicFilter("nodered/+/answers")!])
        #expect(space.refusal(of: "nodered/flow-1/answers") == nil)
        #expect(space.refusal(of: "nodered/flow-1/x/answers") == .outside)
        #expect(space.refusal(of: "reply/x") == .outside)
        #expect(space.refusal(of: "belt/aa/reply") == nil)
        #expect(space.refusal(of: "homeassistant/x") == .readAsState)
        let none = ReplySpace(topics: TopicMap(gateway: "gw"), filters: [])
        #expect(none.refusal(of: "reply/x") == .outside && none.refusal(of: "gatt2mqtt/gw/response/devices") == nil)
    }

    @Test func filtersAreReadAsABrokerReadsThem() {
        for text in ["reply/#", "#", "+", "a/+/b", "a/+/#", "$SYS/#"] { #expect(TopicFilter(text) != nil, "\(text)") }
        for text in ["", "a/#/b", "a/b#", "a+/b", "a/\0", "#/a"] { #expect(TopicFilter(text) == nil, "\(text)") }
        let filter = TopicFilter("reply/#")!
        #expect(
            filter.matches("reply") && filter.matches("reply/a/b") && !filter.matches("replyx")
                && !filter.matches("x/reply"))
        #expect(!TopicFilter("#")!.matches("$SYS/x") && !TopicFilter("+/x")!.matches("$a/x"))
        #expect(TopicFilter("a/+/c")!.matches("a/b/c") && !TopicFilter("a/+/c")!.matches("a/b/d/c"))
    }
}
