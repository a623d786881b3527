/*
 * direct_io.so: takes umockdev's per-read toll off the benchmark, the same way for every reader.
 *
 * umockdev's preload library wraps read() and write() for every file descriptor and, for an emulated device,
 * talks to the testbed over a socket on each call: about 60 microseconds a read, which dwarfs what a reader
 * does with the events. Loaded ahead of it (LD_PRELOAD=direct_io.so:libumockdev-preload.so.0), this library
 * sends read() of a FIFO (the benchmark's event node is one, written in whole events) and write() to standard
 * output and standard error straight to the kernel, and hands everything else to the next definition (umockdev's),
 * so opening the node, its ioctls (EVIOCGABS, EVIOCGMTSLOTS, ...) and sysfs stay emulated.
 *
 * What a descriptor is gets looked up once (fstat) and cached until close(). Benchmarks only; never installed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { UNKNOWN = 0, FIFO = 1, OTHER = 2 };
#define TRACKED 1024
static unsigned char kinds[TRACKED];

static int is_fifo(int fd)
{
	if (fd < 0 || fd >= TRACKED) {
		struct stat st;
		return syscall(SYS_fstat, fd, &st) == 0 && S_ISFIFO(st.st_mode);
	}
	if (kinds[fd] == UNKNOWN) {
		struct stat st;
		kinds[fd] = (syscall(SYS_fstat, fd, &st) == 0 && S_ISFIFO(st.st_mode)) ? FIFO : OTHER;
	}
	return kinds[fd] == FIFO;
}

ssize_t read(int fd, void *buffer, size_t count)
{
	static ssize_t (*next)(int, void *, size_t);
	if (is_fifo(fd))
		return syscall(SYS_read, fd, buffer, count);
	if (!next)
		next = dlsym(RTLD_NEXT, "read");
	return next(fd, buffer, count);
}

ssize_t write(int fd, const void *buffer, size_t count)
{
	static ssize_t (*next)(int, const void *, size_t);
	if (fd == STDOUT_FILENO || fd == STDERR_FILENO)
		return syscall(SYS_write, fd, buffer, count);
	if (!next)
		next = dlsym(RTLD_NEXT, "write");
	return next(fd, buffer, count);
}

int close(int fd)
{
	static int (*next)(int);
	if (fd >= 0 && fd < TRACKED)
		kinds[fd] = UNKNOWN;
	if (!next)
		next = dlsym(RTLD_NEXT, "close");
	return next(fd);
}
