import Logging

/// `<state directory>/adopted.json` as the gateway finds it at its start. A file that is whole gives the list; one
/// that is not (no regular file, no JSON list, entries that name no device) is never taken as the truth, which would
/// start the gateway with devices missing and then publish that shorter list over the broker's retained copy. It is
/// set aside (`DurableFile.setAside`) for a person to read, the entries that were sound are kept (and written again
/// at once), and the broker's word is taken as on a first start (`Adoptions`), with one line that says all this.
struct AdoptionFile {
    /// The devices the file gave; empty when it gave none.
    var list = AdoptionList()
    /// Whether the file was there and whole: the broker's retained list is then not asked.
    var whole = false
    /// Whether it was there and not whole.
    var damaged = false

    static func read(_ file: String, logger: Logger, families: [DeviceFamily] = DeviceFamily.allCases) -> AdoptionFile {
        let bytes: [UInt8]?
        do throws(DurableFile.Failure) {
            bytes = try DurableFile.read(file, limit: Adoptions.fileLimit)
        } catch  where error.notAFile {
            return refused(file, logger: logger, "the adoptions file is no regular file", ["reason": "\(error.reason)"])
        } catch {
            logger.warning(
                "cannot read the adopted devices; starting from what the broker says",
                metadata: ["reason": "\(error.description)"])
            return AdoptionFile()
        }
        guard let bytes else { return AdoptionFile() }
        guard bytes.count <= Adoptions.fileLimit,
            let (list, leftOut) = AdoptionList.parseReporting(bytes, families: families)
        else {
            return refused(file, logger: logger, "the adoptions file holds no JSON list", [:])
        }
        guard leftOut.count == 0 else {
            let more = leftOut.count > leftOut.samples.count ? ", …" : ""
            return refused(
                file, keeping: list, logger: logger, "the adoptions file holds entries that name no device",
                [
                    "left_out": "\(leftOut.count)", "kept": "\(list.count)",
                    "entries": "\(leftOut.samples.joined(separator: ", "))\(more)",
                ])
        }
        return AdoptionFile(list: list, whole: true)
    }

    /// Sets the file aside, writes what it kept of it, and says so in one line.
    private static func refused(
        _ file: String, keeping list: AdoptionList = AdoptionList(), logger: Logger, _ problem: String,
        _ details: Logger.Metadata
    ) -> AdoptionFile {
        var metadata = details
        metadata["file"] = "\(file)"
        do throws(DurableFile.Failure) {
            metadata["set_aside_as"] = "\(try DurableFile.setAside(file))"
            if !list.isEmpty { try DurableFile.replace(file, with: Array(list.json.text.utf8)) }
        } catch {
            metadata["cannot_set_aside"] = "\(error.description)"
        }
        let kept = list.isEmpty ? "" : "keeping the devices it names soundly, "
        logger.error("\(problem); \(kept)adding what the broker's retained list says", metadata: metadata)
        return AdoptionFile(list: list, damaged: true)
    }
}
