import DaemonConfiguration
import Logging

/// What the start says of the declared families: each file left out, at error level with its file and line (the
/// journal and the gateway's `log` topic), each shipped family a user's file replaced, and which are served.
enum DeclarationStartLog {
    static func log(_ catalog: DeclarationCatalog, logger: Logger) {
        for refusal in catalog.refused {
            // The text quotes the file's own words: escaped by the log's formatter, cut short by the reader.
            logger.error("declaration left out: \(refusal)")
        }
        for family in catalog.replaced {
            logger.notice("declaration: the shipped family '\(family)' is replaced by the declarations folder's")
        }
        if !catalog.declarations.isEmpty {
            logger.info("declared families: \(catalog.declarations.map(\.family).joined(separator: ", "))")
        }
    }
}
