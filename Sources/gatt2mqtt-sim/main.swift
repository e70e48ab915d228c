print("gatt2mqtt-sim")
