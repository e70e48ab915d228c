#ifndef GATT2MQTT_CEPOLL_SHIM_H
#define GATT2MQTT_CEPOLL_SHIM_H
/* Swift's Glibc module leaves out <sys/epoll.h>. */
#include <sys/epoll.h>
#endif
