import Bridge
import Peripherals

// FoundationEssentials, as the rest of the daemon: the whole of Foundation (and ICU's data) would grow the static
// binary from 28 MB to 74 MB (it did, once).
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The declared families a gateway serves: those shipped with it (`ShippedDeclarations`, the repository's
/// declarations/ folder), then each `*.yaml` of the declarations folder in name order. A user's file that declares a
/// shipped family replaces it (a shipped profile adjusted without editing the package's files). A file refused (its
/// file, line and why, in `refused`) is left out and every other family is served: one bad file must not take the
/// gateway's other devices with it.
public struct DeclarationCatalog: Sendable {
    public private(set) var declarations: [DeviceDeclaration] = []
    /// The files left out, each with the line to look at.
    public private(set) var refused: [DeclarationError] = []
    /// The shipped families a user's file replaced.
    public private(set) var replaced: [String] = []

    /// Where the declarations folder is unless `devices.declarations` says.
    public static let defaultFolder = "/etc/gatt2mqtt/devices.d"
    /// The most files read from the folder: far above any gateway's devices, and a bound on the start's work.
    public static let fileLimit = 64

    /// The shipped declarations and those in `folder`; a folder that does not exist holds none.
    public static func load(folder: String?) -> DeclarationCatalog {
        var catalog = DeclarationCatalog()
        let written = Set(DeviceFamily.allCases.map(\.rawValue))
        for shipped in ShippedDeclarations.files {
            do throws(DeclarationError) {
                catalog.declarations.append(
                    try DeclarationReader.read(shipped.text, file: "(shipped) " + shipped.name, takenFamilies: written))
            } catch {
                catalog.refused.append(error)
            }
        }
        guard let folder else { return catalog }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }
                .sorted()
        } catch {
            if FileManager.default.fileExists(atPath: folder) {
                catalog.refused.append(
                    DeclarationError(file: folder, line: 1, message: "not a folder that can be read"))
            }
            return catalog
        }
        if names.count > fileLimit {
            catalog.refused.append(
                DeclarationError(
                    file: folder, line: 1,
                    message: "\(names.count) declarations; the first \(fileLimit) by name are read, the rest left out"))
        }
        let shipped = Set(catalog.declarations.map(\.family))
        var fromFolder: [String: String] = [:]
        for name in names.prefix(fileLimit) {
            let path = folder + "/" + name
            do throws(DeclarationError) {
                let declaration = try DeclarationReader.read(file: path, takenFamilies: written)
                if let earlier = fromFolder[declaration.family] {
                    throw DeclarationError(
                        file: path, line: 1, message: "family '\(declaration.family)' is declared in \(earlier) too")
                }
                fromFolder[declaration.family] = name
                if shipped.contains(declaration.family) {
                    catalog.declarations.removeAll { $0.family == declaration.family }
                    catalog.replaced.append(declaration.family)
                }
                catalog.declarations.append(declaration)
            } catch {
                catalog.refused.append(error)
            }
        }
        return catalog
    }
}
