/*
 * job_slurm.c - a Slurm job's hosts, as Slurm's clients give them:
 * squeue for the node list (scontrol show job without it), scontrol show
 * hostnames to expand it, so the names are Slurm's own. Each client runs
 * with its output in a pipe, under a time limit past which it is killed
 * by its PID.
 */
#include "job_slurm.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define CLIENT_LIMIT 60.0 /* seconds */
#define OUTPUT_MAX (64u << 20)

/* Is `name` a program in PATH? */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];

	while (path && *path) {
		const char *e = strchr(path, ':');
		size_t n = e ? (size_t)(e - path) : strlen(path);

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, name);
		if (n && access(buf, X_OK) == 0)
			return true;
		path = e ? e + 1 : NULL;
	}
	return false;
}

/* Read fd into *buf (NUL-terminated) until EOF or the deadline. */
static int read_all(int fd, char **buf, size_t *len, double deadline)
{
	size_t cap = 4096;

	*len = 0;
	*buf = malloc(cap);
	if (!*buf)
		return -1;
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		double left = deadline - cli_now();
		ssize_t n;

		if (left <= 0)
			return -1;
		if (poll(&p, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			return -1;
		if (!p.revents)
			continue;
		if (*len + 4096 > cap) {
			char *m = cap > OUTPUT_MAX ? NULL :
						     realloc(*buf, cap * 2);

			if (!m)
				return -1;
			*buf = m;
			cap *= 2;
		}
		n = read(fd, *buf + *len, cap - *len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	(*buf)[*len] = '\0';
	return 0;
}

/*
 * Run argv (argv[0] from PATH), its standard output into *out; its
 * standard error is ours. 0, or EXIT_TROUBLE after saying why.
 */
static int capture(char **out, char *const *argv)
{
	posix_spawn_file_actions_t fa;
	double deadline = cli_now() + CLIENT_LIMIT;
	int fds[2], status = 0, rc;
	char cmd[512];
	size_t len, used = 0;
	pid_t pid;

	*out = NULL;
	cmd[0] = '\0';
	for (size_t i = 0; argv[i] && used < sizeof(cmd); i++)
		used += (size_t)snprintf(cmd + used, sizeof(cmd) - used, "%s%s",
					 i ? " " : "", argv[i]);
	if (pipe(fds))
		return cli_failf("job --slurm-job: pipe: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		return cli_failf("job --slurm-job: cannot run %s: %s", argv[0],
				 strerror(rc));
	}
	rc = read_all(fds[0], out, &len, deadline);
	close(fds[0]);
	if (rc)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	if (rc)
		return cli_failf("job --slurm-job: '%s' gave no answer within "
				 "%.0f s",
				 cmd, CLIENT_LIMIT);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return cli_failf("job --slurm-job: '%s' failed (exit %d)", cmd,
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

/* The value of " NodeList=" in `scontrol show job` output, in place. */
static char *node_list(char *text)
{
	char *p = text;

	while ((p = strstr(p, "NodeList=")) != NULL) {
		if (p == text || p[-1] == ' ' || p[-1] == '\n' ||
		    p[-1] == '\t') {
			p += strlen("NodeList=");
			p[strcspn(p, " \t\n")] = '\0';
			return p;
		}
		p++;
	}
	return NULL;
}

/* The job's node list (a hostlist expression), or NULL after saying. */
static char *job_nodes(const char *id, char **text)
{
	char *nodes;

	if (in_path("squeue")) {
		char *argv[] = { "squeue", "-h", "-j", (char *)id,
				 "-o",	   "%N", NULL };

		if (capture(text, argv))
			return NULL;
		nodes = *text;
		nodes[strcspn(nodes, "\n")] = '\0';
	} else {
		char *argv[] = { "scontrol", "show", "job", (char *)id, NULL };

		if (capture(text, argv))
			return NULL;
		nodes = node_list(*text);
	}
	if (!nodes || !*nodes || strcmp(nodes, "(null)") == 0) {
		cli_failf("job --slurm-job: job %s has no nodes (not running "
			  "yet, or ended)",
			  id);
		return NULL;
	}
	return nodes;
}

/* Append the k bytes at p to the names; -1 when out of memory. */
static int add_name(char ***names, size_t *n, const char *p, size_t k)
{
	char **m = realloc(*names, (*n + 1) * sizeof(*m));
	char *name;

	if (!m)
		return -1;
	*names = m;
	name = strndup(p, k);
	if (!name)
		return -1;
	m[(*n)++] = name;
	return 0;
}

int job_slurm_hosts(char ***names, size_t *count, const char *id)
{
	char *text = NULL, *hosts = NULL, *nodes;
	size_t n = 0;
	int rc = EXIT_TROUBLE;

	*names = NULL;
	*count = 0;
	if (!*id || strspn(id, "0123456789_+") != strlen(id))
		return cli_failf("bad --slurm-job '%s' (a job id: digits, "
				 "with _ or + for array and "
				 "heterogeneous jobs)",
				 id);
	if (!in_path("scontrol"))
		return cli_failf("job --slurm-job: scontrol not found in PATH: "
				 "Slurm's clients (slurm-client) are not "
				 "installed");
	nodes = job_nodes(id, &text);
	if (nodes) {
		char *argv[] = { "scontrol", "show", "hostnames", nodes, NULL };

		if (!capture(&hosts, argv))
			rc = 0;
	}
	for (char *p = hosts; !rc && p && *p;) {
		size_t k = strcspn(p, "\n");

		if (k && add_name(names, &n, p, k))
			rc = cli_failf("out of memory");
		p += k + (p[k] == '\n');
	}
	if (!rc && !n)
		rc = cli_failf("job --slurm-job: scontrol show hostnames gave "
			       "no host for job %s",
			       id);
	if (rc) {
		ibtopo_hostlist_free(*names, n);
		*names = NULL;
		n = 0;
	}
	*count = n;
	free(text);
	free(hosts);
	return rc;
}
