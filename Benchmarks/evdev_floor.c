/*
 * evdev_floor: the C floor for the benchmark. The least a reader of an evdev node can do and still say something
 * per frame: libevdev reads the node (with SYN_DROPPED handled as libevdev documents), and each SYN_REPORT
 * becomes one short line written with one write(). No decoding, no tracking, no formatting to speak of.
 *
 *   evdev_floor /dev/input/eventN      (stops on SIGTERM/SIGINT, their default action)
 */
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int announce = argc == 3 && strcmp(argv[2], "--opened") == 0;
	if (argc != 2 && !announce) {
		fprintf(stderr, "usage: evdev_floor /dev/input/eventN [--opened]\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	struct libevdev *device;
	int rc = libevdev_new_from_fd(fd, &device);
	if (rc < 0) {
		fprintf(stderr, "%s: libevdev_new_from_fd: %d\n", argv[1], rc);
		return 1;
	}
	/* --opened: one line once the device is described, for the start-up figure (what opening costs any
	 * libevdev reader on this node, umockdev's ioctl round trips included). */
	if (announce && write(STDOUT_FILENO, "opened\n", 7) < 0)
		return 1;
	unsigned long frames = 0;
	unsigned int flag = LIBEVDEV_READ_FLAG_NORMAL;
	struct pollfd waiting = { .fd = fd, .events = POLLIN };
	for (;;) {
		struct input_event event;
		rc = libevdev_next_event(device, flag, &event);
		if (rc == -EAGAIN) {
			if (flag == LIBEVDEV_READ_FLAG_SYNC) {
				flag = LIBEVDEV_READ_FLAG_NORMAL;
				continue;
			}
			if (poll(&waiting, 1, -1) < 0 && errno != EINTR)
				return 1;
			continue;
		}
		if (rc == LIBEVDEV_READ_STATUS_SYNC)
			flag = LIBEVDEV_READ_FLAG_SYNC;
		else if (rc < 0)
			return 1;
		if (event.type == EV_SYN && event.code == SYN_REPORT) {
			char line[64];
			int length = snprintf(line, sizeof line, "%ld.%06ld %lu\n", (long)event.input_event_sec,
					      (long)event.input_event_usec, ++frames);
			if (write(STDOUT_FILENO, line, (size_t)length) < 0)
				return 1;
		}
	}
}
