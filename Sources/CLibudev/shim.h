#ifndef PLUMOMETER_CLIBUDEV_SHIM_H
#define PLUMOMETER_CLIBUDEV_SHIM_H

#include <libudev.h>

#endif
