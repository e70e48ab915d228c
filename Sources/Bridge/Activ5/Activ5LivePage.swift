extension Activ5Driver {
    var livePage: LivePageCard {
        LivePageCard(
            label: "Activ5",
            fields: [.init("force", "Force", unit: "N"), .init("squeeze", "Squeeze"), .init("state", "State")],
            stream: ("force", 0...10, false))
    }
}
