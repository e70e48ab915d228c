import Fleet
import Testing

@Suite("Signal smoother")
struct SignalSmootherTests {
    @Test("has no value before the first sample and takes the first sample as is")
    func firstSample() {
        var smoother = SignalSmoother()
        #expect(smoother.value == nil)
        #expect(smoother.add(-60) == -60)
        #expect(smoother.value == -60)
    }

    @Test("gives a new sample a weight of 0.3, like habluetooth")
    func weighsNewSamples() {
        var smoother = SignalSmoother()
        smoother.add(-60)
        // 0.7 × −60 + 0.3 × −70 = −63
        #expect(smoother.add(-70) == -63)
        // 0.7 × −63 + 0.3 × −50 = −59.1
        #expect(smoother.add(-50) == -59)
        // Kept unrounded: 0.7 × −59.1 + 0.3 × −59 = −59.07, not 0.7 × −59 + 0.3 × −59 = −59
        #expect(smoother.add(-59) == -59)
        #expect(SignalSmoother.standardWeight == 0.3)
    }

    @Test("keeps the unrounded value, so small steps are not lost to rounding")
    func keepsFraction() {
        var smoother = SignalSmoother()
        smoother.add(-60)
        // Each −61 moves the value 0.3 of the remaining way; rounding every step would stick at −60.
        var values: [Int] = []
        for _ in 0..<4 { values.append(smoother.add(-61)) }
        #expect(values == [-60, -61, -61, -61])  // −60.3, −60.51, −60.657, −60.76
    }

    @Test("rounds to within 1 dB of a 30 dB step after 9 samples, since 30 × 0.7^9 ≈ 1.2 < 1.5")
    func followsStep() {
        var smoother = SignalSmoother()
        smoother.add(-90)
        var samples = 0
        while smoother.value! < -61 {
            smoother.add(-60)
            samples += 1
        }
        #expect(samples == 9)  // after 8 samples the gap is 30 × 0.7^8 ≈ 1.73, which rounds to 2 dB
    }

    @Test("forgets history on reset")
    func resets() {
        var smoother = SignalSmoother()
        smoother.add(-90)
        smoother.add(-90)
        smoother.reset()
        #expect(smoother.value == nil)
        #expect(smoother.add(-40) == -40)
    }

    @Test("clamps its weight into 0...1; weight 1 passes samples through")
    func clampsWeight() {
        #expect(SignalSmoother(weight: 3).weight == 1)
        #expect(SignalSmoother(weight: -1).weight == 0)
        var passThrough = SignalSmoother(weight: 1)
        passThrough.add(-60)
        #expect(passThrough.add(-80) == -80)
    }
}
