/*
 * wakeup_probe: how punctual this machine is at waking a sleeping thread, the floor under any latency the
 * real-time section measures. It sleeps to COUNT absolute deadlines INTERVAL_US apart (clock_nanosleep on
 * CLOCK_MONOTONIC, TIMER_ABSTIME), then spins on clock_gettime for as long, and prints one line:
 *
 *   sleeping COUNT LATE_OVER_INTERVAL WORST_NS spinning GAPS_OVER_INTERVAL WORST_GAP_NS
 *
 * A thread that sleeps is late when its (virtual) CPU was halted and woken late, or was busy; a thread that spins
 * is held up only when its CPU is taken from it (by the hypervisor, or by another thread). On a bare machine both
 * counts are about 0; on a VM whose host is busy the first is not. Benchmarks only; never installed.
 *
 *   wakeup_probe COUNT INTERVAL_US
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now(void)
{
	struct timespec time;
	clock_gettime(CLOCK_MONOTONIC, &time);
	return time.tv_sec * 1000000000LL + time.tv_nsec;
}

int main(int argc, char **argv)
{
	long count = argc == 3 ? atol(argv[1]) : 0;
	long long interval = argc == 3 ? atoll(argv[2]) * 1000 : 0;
	if (count <= 0 || interval <= 0) {
		fprintf(stderr, "usage: wakeup_probe COUNT INTERVAL_US\n");
		return 2;
	}
	long late = 0;
	long long worst = 0, origin = now() + interval;
	for (long index = 0; index < count; index++) {
		long long due = origin + index * interval;
		struct timespec deadline = { due / 1000000000, due % 1000000000 };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR)
			;
		long long lateness = now() - due;
		late += lateness > interval;
		worst = lateness > worst ? lateness : worst;
	}
	long gaps = 0;
	long long worst_gap = 0, start = now(), previous = start;
	for (long long current = start; current - start < count * interval; current = now()) {
		gaps += current - previous > interval;
		worst_gap = current - previous > worst_gap ? current - previous : worst_gap;
		previous = current;
	}
	printf("sleeping %ld %ld %lld spinning %ld %lld\n", count, late, worst, gaps, worst_gap);
	return 0;
}
