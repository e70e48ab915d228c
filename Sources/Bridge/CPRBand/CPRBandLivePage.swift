extension CPRBandDriver {
    var livePage: LivePageCard {
        LivePageCard(
            label: "CPR-Band",
            fields: [.init("peak", "Peak", unit: "cm"), .init("angle", "Angle", unit: "°"), .init("mode", "Mode")],
            stream: ("peak", 0...7, false))
    }
}
