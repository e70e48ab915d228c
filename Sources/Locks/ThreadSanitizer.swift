#if GATT2MQTT_TSAN
    /// ThreadSanitizer's happens-before annotations (its runtime defines them when the build is instrumented).
    @usableFromInline enum ThreadSanitizer {
        @usableFromInline @_silgen_name("__tsan_acquire") static func acquire(_ address: UnsafeMutableRawPointer)
        @usableFromInline @_silgen_name("__tsan_release") static func release(_ address: UnsafeMutableRawPointer)
    }
#endif
