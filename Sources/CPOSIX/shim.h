#ifndef PLUMOMETER_CPOSIX_SHIM_H
#define PLUMOMETER_CPOSIX_SHIM_H

/*
 * The process edge's headers that Glibc's Swift module leaves out: the poll loop's signalfd and eventfd, with
 * poll and the signal set calls beside them. Nothing of libevdev: the device has its own module (CLibevdev).
 */
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>

#endif
