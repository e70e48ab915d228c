extension DeclaredDriver {
    /// Every leaf the declaration publishes, as its name says, with its field's unit where it stands alone.
    var livePage: LivePageCard {
        let fields = declaration.characteristics.flatMap { characteristic in
            characteristic.leaves.map { leaf in
                LivePageCard.Field(
                    leaf, DeclaredDriver.label(of: leaf),
                    unit: characteristic.topic == nil ? characteristic.fields.first { $0.name == leaf }?.unit : nil)
            }
        }
        return LivePageCard(label: declaration.label, fields: fields, wide: true)
    }
}
