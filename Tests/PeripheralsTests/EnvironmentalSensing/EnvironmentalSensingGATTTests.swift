import Testing

@testable import Peripherals

/// The simulator's encoders against the GATT Specification Supplement's layouts: Temperature (3.204) a sint16 in
/// 0.01 °C, Humidity (3.120) a uint16 in 0.01 %, Pressure (3.181) a uint32 in 0.1 Pa, each little-endian.
struct EnvironmentalSensingGATTTests {
    @Test func eachReadingAsTheSupplementLaysItOut() {
        #expect(EnvironmentalSensingGATT.temperature(hundredthsOfADegree: 2154) == [0x6A, 0x08])
        #expect(EnvironmentalSensingGATT.temperature(hundredthsOfADegree: -512) == [0x00, 0xFE])
        #expect(EnvironmentalSensingGATT.temperature(hundredthsOfADegree: .min) == [0x00, 0x80], "not known")
        #expect(EnvironmentalSensingGATT.humidity(hundredthsOfAPercent: 4665) == [0x39, 0x12])
        #expect(EnvironmentalSensingGATT.pressure(tenthsOfAPascal: 1_013_250) == [0x02, 0x76, 0x0F, 0x00])
        #expect(EnvironmentalSensingGATT.service == "0000181a-0000-1000-8000-00805f9b34fb")
        #expect(EnvironmentalSensingGATT.temperature == "00002a6e-0000-1000-8000-00805f9b34fb")
    }
}
