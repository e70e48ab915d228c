#ifndef GATT2MQTT_CCLOSEONEXEC_SHIM_H
#define GATT2MQTT_CCLOSEONEXEC_SHIM_H
/* The calls that make a descriptor close-on-exec as they make it, which Swift's Glibc module leaves out (glibc
   declares them only under _GNU_SOURCE). Made first and marked after, a descriptor is inherited by a child that
   another thread spawns in between. Declared here as glibc declares them (2.10 and later); the symbols are
   glibc's. */
#include <sys/socket.h>
extern int pipe2(int __pipedes[2], int __flags);
extern int accept4(int __fd, struct sockaddr *__addr, socklen_t *__addr_len, int __flags);
#endif
