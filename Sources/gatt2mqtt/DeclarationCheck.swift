import Bridge
import DaemonConfiguration
import Peripherals

/// `gatt2mqtt --check-declaration FILE`: a device declaration read as the gateway reads it, and said in one line, or
/// refused with its file, line and reason (issue #59).
enum DeclarationCheck {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What the declaration in `file` makes, for standard output.
    static func check(_ file: String) throws(Failure) -> String {
        let declaration: DeviceDeclaration
        do throws(DeclarationError) {
            declaration = try DeclarationReader.read(
                file: file, takenFamilies: Set(DeviceFamily.allCases.map(\.rawValue)))
        } catch {
            throw Failure(description: error.description)
        }
        let fields = declaration.characteristics.reduce(0) { $0 + $1.fields.count }
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return "\(file): family \(declaration.family) (\(declaration.label)), "
            + "\(counted(declaration.characteristics.count, "characteristic")), \(counted(fields, "field"))"
            + (declaration.commands.isEmpty ? "" : ", \(counted(declaration.commands.count, "command"))")
    }
}
