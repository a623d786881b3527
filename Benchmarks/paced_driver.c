/*
 * paced_driver: the real-time section's clock. It writes pre-encoded frames into the emulated node's FIFO at a
 * fixed rate, each frame's events stamped with CLOCK_REALTIME just before its write(), and stamps every line the
 * reader prints with CLOCK_REALTIME when its read() returns. The latency is the second stamp minus the first.
 *
 * It replaces two Python threads that shared one interpreter lock: the writer waited for the line reader (and the
 * other way round), so on a two-core machine the driver itself wrote hundreds of frames late in some runs and its
 * lateness, not the reader's, set the p99. Here the writer sleeps to an absolute deadline (clock_nanosleep,
 * TIMER_ABSTIME) and the line reader is its own thread; neither takes a lock or allocates while frames flow.
 *
 *   paced_driver FIFO FRAMES RATE STAMPS ARRIVALS [DRAINS]
 *
 * FRAMES  the events as the kernel hands them to a reader (struct input_event, their times ignored); a frame ends
 *         with each SYN_REPORT and goes out in one write() (a frame of 16 contacts is 1.6 KB, under PIPE_BUF).
 * RATE    frames per second.
 * STAMPS  where to write each frame's stamp as the reader prints it ("seconds.microseconds", a line per frame),
 *         or - for none.
 * ARRIVALS where to write every line read from standard input, each prefixed by its arrival stamp
 *         ("seconds.nanoseconds" and a tab), once standard input ends; or - to leave standard input alone.
 * DRAINS  where to write, a line per frame, the microseconds from the end of its write() to the moment the FIFO was
 *         empty again (the reader had read it: the reader's own latency, whatever it then does with the frame), or
 *         -1 when it was not empty by the next frame's deadline. The writer looks every 20 us (FIONREAD), so a
 *         figure is up to one look late; without DRAINS it sleeps between frames and looks at nothing.
 *
 * When the last frame is written it prints "written SECONDS LATE" on standard output: the seconds from the first
 * frame's deadline to the end of the last write, and how many frames went out more than one interval after their
 * deadline (this process was not run in time: the machine, not the reader, was busy). Then it waits for standard
 * input to end (the reader stopped), writes ARRIVALS and exits 0. Benchmarks only; never installed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct arrival {
	struct timespec at;
	size_t end; /* bytes of input received when this read() returned */
};

static char *input;
static size_t input_size, input_capacity;
static struct arrival *arrivals;
static size_t arrival_count, arrival_capacity;

static void fail(const char *what)
{
	fprintf(stderr, "paced_driver: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *grow(void *buffer, size_t *capacity, size_t needed, size_t size)
{
	if (needed <= *capacity)
		return buffer;
	size_t next = *capacity ? *capacity : 1024;
	while (next < needed)
		next *= 2;
	buffer = realloc(buffer, next * size);
	if (!buffer)
		fail("realloc");
	*capacity = next;
	return buffer;
}

/* Reads standard input to its end, noting after every read() how much had arrived and when. */
static void *read_lines(void *unused)
{
	(void)unused;
	for (;;) {
		input = grow(input, &input_capacity, input_size + 65536, 1);
		ssize_t count = read(STDIN_FILENO, input + input_size, input_capacity - input_size);
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		if (count < 0 && errno == EINTR)
			continue;
		if (count < 0)
			fail("read standard input");
		if (count == 0)
			return NULL;
		input_size += (size_t)count;
		arrivals = grow(arrivals, &arrival_capacity, arrival_count + 1, sizeof *arrivals);
		arrivals[arrival_count++] = (struct arrival){ now, input_size };
	}
}

static void write_arrivals(const char *path)
{
	FILE *out = fopen(path, "w");
	if (!out)
		fail(path);
	size_t start = 0, next = 0;
	for (size_t index = 0; index < arrival_count; index++) {
		/* A line belongs to the read() that brought its newline. */
		for (; next < arrivals[index].end; next++) {
			if (input[next] != '\n')
				continue;
			fprintf(out, "%lld.%09ld\t", (long long)arrivals[index].at.tv_sec, arrivals[index].at.tv_nsec);
			fwrite(input + start, 1, next + 1 - start, out);
			start = next + 1;
		}
	}
	if (fclose(out) != 0)
		fail(path);
}

static int64_t nanoseconds(struct timespec time)
{
	return (int64_t)time.tv_sec * 1000000000 + time.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc != 6 && argc != 7) {
		fprintf(stderr, "usage: paced_driver FIFO FRAMES RATE STAMPS|- ARRIVALS|- [DRAINS]\n");
		return 2;
	}
	double rate = atof(argv[3]);
	if (rate <= 0) {
		fprintf(stderr, "paced_driver: RATE must be a positive number of frames per second, not %s\n", argv[3]);
		return 2;
	}
	int frames_fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	struct stat status;
	if (frames_fd < 0 || fstat(frames_fd, &status) != 0)
		fail(argv[2]);
	size_t event_total = (size_t)status.st_size / sizeof(struct input_event);
	if (event_total * sizeof(struct input_event) != (size_t)status.st_size) {
		fprintf(stderr, "paced_driver: %s: %lld bytes is not a whole number of events\n", argv[2],
			(long long)status.st_size);
		return 1;
	}
	struct input_event *events = malloc(status.st_size ? status.st_size : 1);
	if (!events)
		fail("malloc");
	for (off_t done = 0; done < status.st_size;) {
		ssize_t count = read(frames_fd, (char *)events + done, status.st_size - done);
		if (count <= 0)
			fail(argv[2]);
		done += count;
	}
	close(frames_fd);

	/* Where each frame starts, so the loop below only stamps and writes. */
	size_t frame_count = 0;
	for (size_t index = 0; index < event_total; index++)
		frame_count += events[index].type == EV_SYN && events[index].code == SYN_REPORT;
	if (event_total > 0 && (events[event_total - 1].type != EV_SYN || events[event_total - 1].code != SYN_REPORT)) {
		fprintf(stderr, "paced_driver: %s: the last frame has no SYN_REPORT\n", argv[2]);
		return 1;
	}
	size_t *first = calloc(frame_count + 1, sizeof *first);
	char (*stamps)[32] = calloc(frame_count ? frame_count : 1, sizeof *stamps);
	int64_t *drains = argc == 7 ? calloc(frame_count ? frame_count : 1, sizeof *drains) : NULL;
	if (!first || !stamps || (argc == 7 && !drains))
		fail("calloc");
	for (size_t index = 0, frame = 1; index < event_total; index++)
		if (events[index].type == EV_SYN && events[index].code == SYN_REPORT)
			first[frame++] = index + 1;

	int fifo = open(argv[1], O_WRONLY | O_CLOEXEC);
	if (fifo < 0)
		fail(argv[1]);

	pthread_t reader;
	int reading = strcmp(argv[5], "-") != 0;
	if (reading) {
		input = grow(input, &input_capacity, (size_t)64 << 20, 1); /* ample for 30 s at 1 kHz x 16 */
		arrivals = grow(arrivals, &arrival_capacity, frame_count * 2 + 1024, sizeof *arrivals);
		if (pthread_create(&reader, NULL, read_lines, NULL) != 0)
			fail("pthread_create");
	}

	int64_t interval = (int64_t)(1e9 / rate);
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	int64_t origin = nanoseconds(start) + 50000000; /* the first deadline: 50 ms on */
	unsigned long late = 0;
	struct timespec now;
	for (size_t frame = 0; frame < frame_count; frame++) {
		int64_t due = origin + (int64_t)frame * interval;
		struct timespec deadline = { due / 1000000000, due % 1000000000 };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR)
			;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (nanoseconds(now) - due > interval)
			late++;
		struct timespec wall;
		clock_gettime(CLOCK_REALTIME, &wall);
		int64_t microseconds = wall.tv_nsec / 1000;
		for (size_t index = first[frame]; index < first[frame + 1]; index++) {
			events[index].input_event_sec = wall.tv_sec;
			events[index].input_event_usec = microseconds;
		}
		snprintf(stamps[frame], sizeof stamps[frame], "%lld.%06lld", (long long)wall.tv_sec,
			 (long long)microseconds);
		const char *bytes = (const char *)&events[first[frame]];
		size_t size = (first[frame + 1] - first[frame]) * sizeof *events;
		while (size > 0) {
			ssize_t count = write(fifo, bytes, size);
			if (count < 0 && errno == EINTR)
				continue;
			if (count < 0)
				fail(argv[1]);
			bytes += count;
			size -= (size_t)count;
		}
		if (drains) {
			/* Until the FIFO is empty, or the next frame is due. */
			struct timespec written;
			clock_gettime(CLOCK_MONOTONIC, &written);
			drains[frame] = -1;
			for (;;) {
				int unread = 0;
				if (ioctl(fifo, FIONREAD, &unread) != 0)
					fail("FIONREAD");
				clock_gettime(CLOCK_MONOTONIC, &now);
				if (unread == 0) {
					drains[frame] = (nanoseconds(now) - nanoseconds(written)) / 1000;
					break;
				}
				if (nanoseconds(now) + 20000 >= due + interval)
					break;
				struct timespec look = { 0, 20000 };
				nanosleep(&look, NULL);
			}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	printf("written %.6f %lu\n", (nanoseconds(now) - origin) / 1e9, late);
	fflush(stdout);
	close(fifo);

	if (strcmp(argv[4], "-") != 0) {
		FILE *out = fopen(argv[4], "w");
		if (!out)
			fail(argv[4]);
		for (size_t frame = 0; frame < frame_count; frame++)
			fprintf(out, "%s\n", stamps[frame]);
		if (fclose(out) != 0)
			fail(argv[4]);
	}
	if (drains) {
		FILE *out = fopen(argv[6], "w");
		if (!out)
			fail(argv[6]);
		for (size_t frame = 0; frame < frame_count; frame++)
			fprintf(out, "%lld\n", (long long)drains[frame]);
		if (fclose(out) != 0)
			fail(argv[6]);
	}
	if (reading) {
		pthread_join(reader, NULL);
		write_arrivals(argv[5]);
	}
	return 0;
}
