extension BeltDriver {
    var livePage: LivePageCard {
        LivePageCard(
            label: "Belt",
            fields: [.init("heading", "Heading", unit: "°"), .init("mode", "Mode"), .init("navigation", "Navigation")],
            stream: ("heading", 0...360, true))
    }
}
