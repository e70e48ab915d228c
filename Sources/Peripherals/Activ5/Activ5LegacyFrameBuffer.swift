/// The device's 20-byte notification buffer, for the simulator (activ5.md §4.2, §10.4).
///
/// Both iOS test vectors are 20 bytes with the tail of an earlier message after the 0x13, so the device
/// apparently overwrites the front of one buffer and sends all of it. Sending frames through this buffer
/// reproduces that, which tests that clients stop at the first 0x13.
public struct Activ5LegacyFrameBuffer: Sendable, Equatable {
    /// The bytes of the last frame sent, at most 20.
    public private(set) var bytes: [UInt8]

    /// Creates a buffer; empty by default, so the first frames go out without a tail.
    public init(bytes: [UInt8] = []) {
        self.bytes = Array(bytes.prefix(Activ5LegacyFraming.frameLength))
    }

    /// The notification for `message`: its frame followed by whatever the previous frames left behind.
    public mutating func transmit(_ message: Activ5LegacyMessage) -> [UInt8] {
        let frame = message.encoded()
        let tail = bytes.count > frame.count ? Array(bytes[frame.count...]) : []
        bytes = Array((frame + tail).prefix(Activ5LegacyFraming.frameLength))
        return frame.count > Activ5LegacyFraming.frameLength ? frame : bytes
    }
}
