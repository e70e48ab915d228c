import TestSupport
import Testing

@testable import Bridge

/// The payloads written straight are what `String` and `JSONValue` write, byte for byte.
struct PayloadWriterTests {
    @Test func integersAreWrittenAsStringWritesThem() {
        var random = SplitMix64(seed: 45)
        let extremes: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, .max, .min]
        var values = extremes.map { ($0, String($0)) }
        for _ in 0..<2_000 {
            let value = Int64.random(in: .min ... .max, using: &random) >> Int64.random(in: 0...62, using: &random)
            values.append((value, String(value)))
        }
        for (value, expected) in values {
            #expect(PayloadWriter.text(capacity: 24) { $0.append(value) } == expected)
        }
        #expect(PayloadWriter.text(capacity: 24) { $0.append(UInt64.max) } == String(UInt64.max))
        #expect(PayloadWriter.text(capacity: 8) { $0.append(Int8.min) } == "-128")
        #expect(
            PayloadWriter.text(capacity: 16) {
                $0.append("a\"b")
                $0.append(true)
            } == "a\"btrue")
    }

    @Test func theCPRBandsStatisticsAreTheModelsJSON() {
        var random = SplitMix64(seed: 46)
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...1_000_000, using: &random)
            let share =
                Bool.random(using: &random)
                ? (Double.random(in: 0...1, using: &random) * 1000).rounded() / 1000 : nil
            let rate =
                Bool.random(using: &random)
                ? (Double.random(in: 0...300, using: &random) * 10).rounded() / 10 : nil
            var members: [String: JSONValue] = ["count": .number(Double(count))]
            if let share { members["in_range_share"] = .number(share) }
            if let rate { members["rate_per_minute"] = .number(rate) }
            #expect(
                CPRBandTelemetry.statsPayload(count: count, inRangeShare: share, ratePerMinute: rate)
                    == JSONValue.object(members).text)
        }
    }
}
