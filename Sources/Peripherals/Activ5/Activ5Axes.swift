/// Three raw int16 axis readings, as they travel in an IMU packet.
public struct Activ5RawAxes: Sendable, Equatable {
    /// X axis.
    public let x: Int16
    /// Y axis.
    public let y: Int16
    /// Z axis.
    public let z: Int16

    /// Creates raw readings.
    public init(x: Int16, y: Int16, z: Int16) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// Three axis values in physical units (g or rad/s, as the owner says).
public struct Activ5Vector3: Sendable, Equatable {
    /// X axis.
    public var x: Double
    /// Y axis.
    public var y: Double
    /// Z axis.
    public var z: Double

    /// Creates a vector.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// All zero.
    public static let zero = Activ5Vector3(x: 0, y: 0, z: 0)
}
