#ifndef PLUMOMETER_CLIBEVDEV_SHIM_H
#define PLUMOMETER_CLIBEVDEV_SHIM_H

#include <libevdev/libevdev.h>
#include <linux/input.h>

/*
 * input_event_sec/input_event_usec are macros on 64-bit-time ABIs, which Swift cannot import.
 */
static inline long plumometer_event_sec(const struct input_event *ev)
{
	return (long)ev->input_event_sec;
}

static inline long plumometer_event_usec(const struct input_event *ev)
{
	return (long)ev->input_event_usec;
}

#endif
