#!/bin/sh
# The container's entry point, also run by the tests outside any container.
# Configuration: /config/gatt2mqtt.yaml when mounted (or GATT2MQTT_CONFIG), GATT2MQTT_* environment
# variables (broker, adapter, gateway, log level, MQTT username and password), then any arguments.
set -eu
bin="${GATT2MQTT_BIN:-/usr/bin/gatt2mqtt}"
config="${GATT2MQTT_CONFIG:-/config/gatt2mqtt.yaml}"
if [ -f "$config" ]; then
    export GATT2MQTT_CONFIG="$config"
else
    unset GATT2MQTT_CONFIG
fi
exec "$bin" "$@"
