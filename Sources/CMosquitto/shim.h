#ifndef GATT2MQTT_CMOSQUITTO_SHIM_H
#define GATT2MQTT_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
