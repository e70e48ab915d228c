/// The spellings of a 128-bit UUID the bridge and its clients may meet: BlueZ's, upper case, 16-bit,
/// `0x` 16-bit, padded. Compiled into every fuzz target.
func spelled(_ uuid: String, style: UInt8) -> String {
    let short = String(uuid.dropFirst(4).prefix(4))
    switch style % 5 {
    case 1: return uuid.uppercased()
    case 2: return short.uppercased()
    case 3: return "0x" + short
    case 4: return " \(uuid) "
    default: return uuid
    }
}
