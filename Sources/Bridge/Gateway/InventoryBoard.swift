import Locks

/// What the gateway last said of its devices: the retained list's text (published again only when it changes),
/// and the scan's window (which sightings go to `gatt2mqtt/<gateway>/scan`).
final class InventoryBoard: Sendable {
    private let lastList = Mutex<String?>(nil)
    let scanWindow = ScanWindow(seenLimit: DeviceChoices.strangerLimit)

    /// Records `text` as the list last published; false when it is the same as before.
    func changed(to text: String) -> Bool {
        lastList.withLock { last in
            defer { last = text }
            return last != text
        }
    }
}
