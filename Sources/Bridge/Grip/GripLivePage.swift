extension GripDriver {
    var livePage: LivePageCard {
        LivePageCard(
            label: "Grip", fields: [.init("event", "Last event"), .init("bonded", "Bonded"), .init("state", "State")],
            wide: true)
    }
}
