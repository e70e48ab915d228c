extension HeartRateDriver {
    var livePage: LivePageCard {
        LivePageCard(
            label: "Heart rate",
            fields: [
                .init("bpm", "Rate", unit: "bpm"), .init("contact", "Contact"), .init("energy", "Energy", unit: "kJ"),
            ],
            stream: ("bpm", 30...220, false))
    }
}
