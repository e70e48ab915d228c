import Foundation
import Testing

@testable import Bridge

struct FixedDecimalsTests {
    /// The same text as `%.2f` and `%.1f` for the values a sensor reports, ties and negative zero included.
    @Test(arguments: [
        0, -0.0, 23.41, -0.5, 0.005, 0.015, 0.125, 1.005, 2.675, -3.14159, 99.999, 100, 1234.5678, -0.001, 0.994, 0.995,
        32767 * 1.08625,
        0.05, 0.25, 0.35, -0.05, 9.95, 4.45,
    ])
    func matchesPrintf(_ value: Double) {
        #expect(FixedDecimals.text(value) == String(format: "%.2f", value))
        #expect(FixedDecimals.text(value, places: 1) == String(format: "%.1f", value))
    }

    @Test func everyHundredthOfTheForceRangeMatchesPrintf() {
        var mismatches: [String] = []
        for raw in stride(from: -20_000, through: 20_000, by: 1) {
            for value in [Double(raw) / 100, Double(raw) * 1.08625 / 10, Double(raw) / 3] {
                for places in 1...2 {
                    let expected = String(format: "%.\(places)f", value)
                    let text = FixedDecimals.text(value, places: places)
                    if text != expected { mismatches.append("\(value) to \(places): \(text) ≠ \(expected)") }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
