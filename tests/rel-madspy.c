/*
 * rel-madspy.c - a preload library that logs every MAD a program sends.
 *
 * tests/integration/readonly-mads.sh preloads it in front of ibsim's
 * libumad2sim.so:
 *
 *   REL_MADSPY_LOG=mads.log LD_PRELOAD=rel-madspy.so:libumad2sim.so prog
 *
 * Its umad_send() comes before libibumad's in the lookup order, so every
 * MAD that libibnetdisc or libibmad sends passes here first: it appends
 * one line per MAD to $REL_MADSPY_LOG, "CLASS METHOD ATTRIBUTE" in hex
 * (management class, method, attribute id: bytes 1, 3 and 16-17 of the
 * MAD header), then calls the next umad_send (dlsym RTLD_NEXT).
 * Each line is one write() to a file opened O_APPEND, so several threads
 * or processes may share a log. Without REL_MADSPY_LOG it only passes
 * the MADs on.
 *
 * It also breaks a fabric at a chosen moment (tests/integration/
 * faulty-sim.sh): with REL_MADSPY_AT=N, REL_MADSPY_FIFO=<ibsim console
 * FIFO> and REL_MADSPY_CMD=<console command>, before the Nth MAD of the
 * process goes out it writes the command to the simulator's console and
 * waits 200 ms for ibsim to carry it out (ibsim serves its console and
 * its clients from one loop).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/umad.h>

typedef int (*umad_send_fn)(int portid, int agentid, void *umad, int length,
			    int timeout_ms, int retries);

int umad_send(int portid, int agentid, void *umad, int length,
	      int timeout_ms, int retries);

static void log_mad(const void *umad, int length)
{
	const uint8_t *mad = ((const struct ib_user_mad *)umad)->data;
	const char *path = getenv("REL_MADSPY_LOG");
	char line[64];
	ssize_t written;
	int fd, n;

	if (!path || !*path)
		return;
	if (length < 18)
		n = snprintf(line, sizeof(line), "short %d\n", length);
	else
		n = snprintf(line, sizeof(line), "%02x %02x %04x\n", mad[1],
			     mad[3], (unsigned)(mad[16] << 8 | mad[17]));
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	written = write(fd, line, (size_t)n);
	(void)written;		/* a lost line makes the test fail */
	close(fd);
}

static void trigger(void)
{
	static unsigned long sent;
	const char *at = getenv("REL_MADSPY_AT");
	const char *fifo = getenv("REL_MADSPY_FIFO");
	const char *cmd = getenv("REL_MADSPY_CMD");
	char line[512];
	ssize_t written;
	int fd, n;

	sent++;
	if (!at || !fifo || !cmd || strtoul(at, NULL, 10) != sent)
		return;
	n = snprintf(line, sizeof(line), "%s\n", cmd);
	if (n <= 0 || (size_t)n >= sizeof(line))
		return;
	fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	written = write(fd, line, (size_t)n);
	(void)written;		/* a lost command makes the test fail */
	close(fd);
	usleep(200000);
}

int umad_send(int portid, int agentid, void *umad, int length,
	      int timeout_ms, int retries)
{
	static umad_send_fn next;
	int saved;

	if (!next) {
		*(void **)&next = dlsym(RTLD_NEXT, "umad_send");
		if (!next) {
			errno = ENOSYS;
			return -ENOSYS;
		}
	}
	saved = errno;
	trigger();
	log_mad(umad, length);
	errno = saved;
	return next(portid, agentid, umad, length, timeout_ms, retries);
}
