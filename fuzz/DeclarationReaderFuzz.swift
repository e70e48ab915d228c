// libFuzzer target: DeclarationReader.read(_:file:takenFamilies:), what the daemon runs at its start on every file of
// the declarations folder (issue #59), and DeclaredDecoder.decode on what a declaration it accepts declares. The
// reader is public in DaemonConfiguration, whose other parts (the configuration, the live page) it does not need:
// scripts/fuzz compiles this file with DaemonConfiguration's YAML/ and Declarations/ folders alone (the catalog, which
// reads folders, stays out), as that module, linked with Bridge.
//
// Input: the file's bytes (no selector); bytes that are not UTF-8 are repaired to U+FFFD. Checks: never traps or
// hangs; a refusal names the file and a line of the text, and says something; an accepted declaration has a family
// name that may be one and no written family's, a label, something to match by, one or more characteristics each
// with one or more fields, no topic leaf published twice, and every characteristic's fields decode the first bytes of
// the input itself without trapping (refused or not), to fields each published once.
import Bridge
import Peripherals

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    // Lines as the reader counts them: LF, CR-LF and CR each end one.
    var lineCount = 1
    var afterCarriageReturn = false
    for byte in text.utf8 {
        if byte == 0x0D || (byte == 0x0A && !afterCarriageReturn) { lineCount += 1 }
        afterCarriageReturn = byte == 0x0D
    }
    let declaration: DeviceDeclaration
    do throws(DeclarationError) {
        declaration = try DeclarationReader.read(text, file: "fuzz.yaml", takenFamilies: ["belt", "hr"])
    } catch {
        guard error.file == "fuzz.yaml", (1...max(lineCount, 1)).contains(error.line), !error.message.isEmpty else {
            fatalError("\(error) for a text of \(lineCount) lines")
        }
        return 0
    }
    guard DeviceFamily.isValidName(declaration.family), !["belt", "hr"].contains(declaration.family),
        !declaration.label.isEmpty, !declaration.match.isEmpty, !declaration.characteristics.isEmpty
    else { fatalError("accepted: \(declaration)") }
    var leaves: Set<String> = []
    for characteristic in declaration.characteristics {
        guard !characteristic.fields.isEmpty else { fatalError("no fields: \(characteristic)") }
        for leaf in characteristic.leaves where !leaves.insert(leaf).inserted {
            fatalError("leaf \(leaf) published twice in \(declaration)")
        }
        let value = Array(bytes.prefix(64))
        guard let fields = try? DeclaredDecoder.decode(value, fields: characteristic.fields, characteristic: "x")
        else { continue }
        let names = fields.map(\.name)
        guard Set(names).count == names.count else { fatalError("\(names) from \(characteristic.fields)") }
    }
    return 0
}
