/*
 * whatif_reroute.c - `whatif --reroute ENGINE`: let OpenSM's real engine
 * say where the routes go after a failure. The fabric as it is and the
 * fabric without what failed are written as ibsim net files (GUIDs
 * kept) into a private temporary directory; for each, a simulator of
 * our own (its own socket name) runs `opensm -o -R ENGINE` once and this
 * program's own `discover --routes` under umad2sim, and is stopped by
 * its PID. Every child runs under a time limit, is killed by its PID
 * when it passes it, and dies with us (PR_SET_PDEATHSIG).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw(), FTW_DEPTH */
#endif
#include "config.h"

#include "whatif_reroute.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#ifndef IBTOPO_IBSIM_PATH
#define IBTOPO_IBSIM_PATH ""
#endif
#ifndef IBTOPO_OPENSM_PATH
#define IBTOPO_OPENSM_PATH ""
#endif
#ifndef IBTOPO_UMAD2SIM_PATH
#define IBTOPO_UMAD2SIM_PATH ""
#endif

/* seconds: ibsim to listen, opensm's sweep, discovery */
#define LISTEN_LIMIT 30.0
#define CHILD_LIMIT 600.0

/* ibsim's defaults (ibsim 0.10), raised for a larger fabric */
#define SIM_NODES 2048
#define SIM_SWITCHES 256
#define SIM_PORTS 13312

struct progs {
	char ibsim[PATH_MAX], opensm[PATH_MAX], umad2sim[PATH_MAX];
	char self[PATH_MAX];
};

/* One run of the simulator: its directory and socket name. */
struct sim {
	char dir[PATH_MAX + 16];
	char sock[64];
	char host[64]; /* SIM_HOST: the CA clients attach at */
	const char *engine;
	const struct progs *p;
};

/* ---- finding the programs ---- */

static bool runnable(const char *path, bool exec)
{
	return *path && access(path, exec ? X_OK : R_OK) == 0;
}

/* $VAR when set (then it must be there), else the configured path, else
 * the first of `dirs` (":"-separated) that has `name`. */
static int find_prog(char *out, const char *var, const char *configured,
		     const char *name, const char *dirs, bool exec,
		     const char *package)
{
	const char *env = getenv(var);
	const char *s = dirs;

	if (env && *env) {
		snprintf(out, PATH_MAX, "%s", env);
		if (runnable(out, exec))
			return 0;
		return cli_failf("whatif --reroute: %s not found: $%s names "
				 "'%s'",
				 name, var, env);
	}
	snprintf(out, PATH_MAX, "%s", configured);
	if (runnable(out, exec))
		return 0;
	while (s && *s) {
		const char *e = strchr(s, ':');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		snprintf(out, PATH_MAX, "%.*s/%s", (int)n, s, name);
		if (n && runnable(out, exec))
			return 0;
		s = e ? e + 1 : NULL;
	}
	return cli_failf("whatif --reroute: %s not found: install %s, or set "
			 "$%s",
			 name, package, var);
}

static int find_progs(struct progs *p)
{
	char path[4096];
	ssize_t n;

	snprintf(path, sizeof(path), "%s:/usr/sbin:/sbin",
		 getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	if (find_prog(p->ibsim, "IBSIM", IBTOPO_IBSIM_PATH, "ibsim", path, true,
		      "ibsim-utils") ||
	    find_prog(p->umad2sim, "UMAD2SIM", IBTOPO_UMAD2SIM_PATH,
		      "libumad2sim.so",
		      "/usr/lib/x86_64-linux-gnu/umad2sim:"
		      "/usr/lib/aarch64-linux-gnu/umad2sim:/usr/lib/umad2sim:"
		      "/usr/lib64/umad2sim",
		      false, "ibsim-utils") ||
	    find_prog(p->opensm, "OPENSM", IBTOPO_OPENSM_PATH, "opensm", path,
		      true, "opensm"))
		return EXIT_TROUBLE;
	n = readlink("/proc/self/exe", p->self, sizeof(p->self) - 1);
	if (n <= 0)
		return cli_failf("whatif --reroute: cannot find this program: "
				 "%s",
				 strerror(errno));
	p->self[n] = '\0';
	return 0;
}

/* ---- children ---- */

/* The environment of a child: ours without what we set or `add` sets,
 * then `add` (NULL-terminated "NAME=value" strings). Free the array,
 * not the strings. */
static char **child_env(const char *const *add)
{
	static const char *const drop[] = {
		"LD_PRELOAD=",	  "IBSIM_SOCKNAME=",	   "SIM_HOST=",
		"OSM_CACHE_DIR=", "OSM_TMP_DIR=",	   "IBTOPO_DB=",
		"IBTOPO_FABRIC=", "IBTOPO_NODE_NAME_MAP=", NULL,
	};
	size_t n = 0, m = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	while (add[m])
		m++;
	env = calloc(n + m + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		bool skip = false;

		for (size_t d = 0; drop[d]; d++)
			skip |= strncmp(environ[i], drop[d], strlen(drop[d])) ==
				0;
		/* and what `add` sets anew (ASAN_OPTIONS) */
		for (size_t a = 0; a < m; a++)
			skip |= strncmp(environ[i], add[a],
					strcspn(add[a], "=") + 1) == 0;
		if (!skip)
			env[k++] = environ[i];
	}
	for (size_t i = 0; i < m; i++)
		env[k++] = (char *)add[i];
	return env;
}

/* Start argv in `dir`, stdin /dev/null, stdout and stderr into `log`. */
static int spawn(pid_t *out, char *const *argv, char *const *env,
		 const char *dir, const char *log)
{
	pid_t pid = fork();

	if (pid < 0)
		return cli_failf("whatif --reroute: cannot start %s: %s",
				 argv[0], strerror(errno));
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (nul < 0 || fd < 0 || chdir(dir) || dup2(nul, 0) < 0 ||
		    dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execve(argv[0], argv, env);
		_exit(127);
	}
	*out = pid;
	return 0;
}

/* A signal that asks us to stop (INT, TERM, HUP): the children are
 * stopped by their PIDs and the directory removed, then it is raised
 * again. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void catch_signals(struct sigaction *old, bool on)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < 3; i++) {
		if (on)
			sigaction(stop_signals[i], &sa, &old[i]);
		else
			sigaction(stop_signals[i], &old[i], NULL);
	}
}

static void nap(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* Wait for the child `pid` at most `limit` seconds; past it, kill it (by
 * its PID) and return -1; -2 when a signal asked us to stop. Else its
 * exit status (128 + signal). */
static int wait_child(pid_t pid, double limit)
{
	double t0 = cli_now();
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (interrupted || cli_now() - t0 > limit) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return interrupted ? -2 : -1;
		}
		nap();
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* Stop the simulator by its PID: TERM, then KILL after 5 s. */
static void stop_child(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	if (wait_child(pid, 5.0) == -1)
		(void)0; /* killed by wait_child() */
}

/* The last non-empty line of a log, for an error message. */
static const char *last_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];

	snprintf(buf, len, "see %s", path);
	if (!f)
		return buf;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (*line && len) {
			/* cut to fit: a log line may be longer than buf */
			size_t n = strnlen(line, len - 1);

			memcpy(buf, line, n);
			buf[n] = '\0';
		}
	}
	fclose(f);
	return buf;
}

static bool listening(const char *sock)
{
	FILE *f = fopen("/proc/net/unix", "r");
	char line[512], want[80];
	bool found = false;

	if (!f)
		return false;
	snprintf(want, sizeof(want), "@%s:ctl", sock);
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, want) != NULL;
	fclose(f);
	return found;
}

/* ---- one sweep ---- */

static int write_net(const char *path, const struct ibtopo_fabric *f)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	FILE *out = fopen(path, "w");
	struct ibtopo_sink sink = {
		.version = IBTOPO_SINK_VERSION,
		.format = IBTOPO_FORMAT_TEXT,
		.write = ibtopo_write_file,
		.write_arg = out,
	};
	int rc;

	if (!out)
		return cli_failf("whatif --reroute: cannot create '%s': %s",
				 path, strerror(errno));
	rc = ibtopo_fabric_write(&sink, f, IBTOPO_EXPORT_IBSIM, &err);
	if (fclose(out) && !rc)
		return cli_failf("whatif --reroute: cannot write '%s'", path);
	return rc ? cli_fail(&err) : 0;
}

static int start_sim(pid_t *pid, const struct sim *s,
		     const struct ibtopo_fabric *f)
{
	char net[PATH_MAX + 48], log[PATH_MAX + 48], sock[96], why[256];
	char nn[24], ns[24], np[24];
	size_t nodes = ibtopo_fabric_node_count(f), sw = 0, ports = 0;
	double t0 = cli_now();
	const char *add[] = { sock, NULL };
	char **env;
	int rc;

	for (size_t i = 0; i < nodes; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		sw += n->type == IBTOPO_NODE_SWITCH;
		ports += n->nports + 1;
	}
	snprintf(nn, sizeof(nn), "%zu",
		 nodes + 1 > SIM_NODES ? nodes + 1 : SIM_NODES);
	snprintf(ns, sizeof(ns), "%zu",
		 sw + 1 > SIM_SWITCHES ? sw + 1 : SIM_SWITCHES);
	snprintf(np, sizeof(np), "%zu",
		 ports + 1 > SIM_PORTS ? ports + 1 : SIM_PORTS);
	snprintf(net, sizeof(net), "%s/fabric.net", s->dir);
	snprintf(log, sizeof(log), "%s/ibsim.log", s->dir);
	snprintf(sock, sizeof(sock), "IBSIM_SOCKNAME=%s", s->sock);
	rc = write_net(net, f);
	if (rc)
		return rc;
	env = child_env(add);
	if (!env)
		return cli_failf("out of memory");
	{
		char *argv[] = { (char *)s->p->ibsim,
				 "-s",
				 "-n",
				 "-N",
				 nn,
				 "-S",
				 ns,
				 "-P",
				 np,
				 net,
				 NULL };

		rc = spawn(pid, argv, env, s->dir, log);
	}
	free(env);
	while (!rc && !listening(s->sock)) {
		if (waitpid(*pid, NULL, WNOHANG) == *pid) {
			*pid = 0;
			return cli_failf("whatif --reroute: ibsim exited: %s",
					 last_line(log, why, sizeof(why)));
		}
		if (interrupted)
			return cli_failf("whatif --reroute: interrupted");
		if (cli_now() - t0 > LISTEN_LIMIT)
			return cli_failf("whatif --reroute: ibsim did not "
					 "listen within %.0f s",
					 LISTEN_LIMIT);
		nap();
	}
	return rc;
}

/* Run one client of the simulator under umad2sim and wait for it. */
static int sim_client(const struct sim *s, char *const *argv, const char *log,
		      const char *what)
{
	char sock[96], host[96], pre[PATH_MAX + 48], cache[PATH_MAX + 48],
		tmp[PATH_MAX + 48], why[256];
	char asan[1024];
	const char *add[] = { sock, host, pre, cache, tmp, asan, NULL };
	char **env;
	pid_t pid;
	int rc;

	snprintf(sock, sizeof(sock), "IBSIM_SOCKNAME=%s", s->sock);
	snprintf(host, sizeof(host), "SIM_HOST=%s", s->host);
	snprintf(pre, sizeof(pre), "LD_PRELOAD=%s", s->p->umad2sim);
	snprintf(cache, sizeof(cache), "OSM_CACHE_DIR=%s", s->dir);
	snprintf(tmp, sizeof(tmp), "OSM_TMP_DIR=%s", s->dir);
	/* umad2sim copies whole MAD buffers out of shorter ones (ibsim 0.10):
	 * as tests/lib.sh's sim_client, no memcpy range checks under ASan */
	snprintf(asan, sizeof(asan), "ASAN_OPTIONS=%s%sreplace_intrin=0",
		 getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "",
		 getenv("ASAN_OPTIONS") ? ":" : "");
	env = child_env(add);
	if (!env)
		return cli_failf("out of memory");
	rc = spawn(&pid, argv, env, s->dir, log);
	free(env);
	if (rc)
		return rc;
	rc = wait_child(pid, CHILD_LIMIT);
	if (rc == -2)
		return cli_failf("whatif --reroute: interrupted");
	if (rc == -1)
		return cli_failf("whatif --reroute: %s did not finish within "
				 "%.0f s",
				 what, CHILD_LIMIT);
	if (rc)
		return cli_failf("whatif --reroute: %s failed (exit %d): %s",
				 what, rc, last_line(log, why, sizeof(why)));
	return 0;
}

/* opensm -o -R engine, then our discover --routes into dir/db. */
static int sweep_sim(const struct sim *s)
{
	char osmlog[PATH_MAX + 48], out[PATH_MAX + 48], db[PATH_MAX + 48];
	char disc[PATH_MAX + 48];
	int rc;

	snprintf(osmlog, sizeof(osmlog), "%s/osm.log", s->dir);
	snprintf(out, sizeof(out), "%s/opensm.out", s->dir);
	snprintf(db, sizeof(db), "%s/swept.db", s->dir);
	snprintf(disc, sizeof(disc), "%s/discover.out", s->dir);
	{
		char *argv[] = { (char *)s->p->opensm,
				 "-o",
				 "-R",
				 (char *)s->engine,
				 "-f",
				 osmlog,
				 NULL };

		rc = sim_client(s, argv, out, "opensm");
	}
	if (rc)
		return rc;
	{
		char *argv[] = { (char *)s->p->self,
				 "--db",
				 db,
				 "--fabric",
				 "reroute",
				 "discover",
				 "--routes",
				 "--routes-log",
				 osmlog,
				 NULL };

		rc = sim_client(s, argv, disc, "discover --routes");
	}
	return rc;
}

/* Name the swept nodes as the fabric they were exported from. */
static int rename_nodes(struct ibtopo_fabric *swept,
			const struct ibtopo_fabric *orig)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	for (size_t i = 0; i < ibtopo_fabric_node_count(swept); i++) {
		struct ibtopo_node *n = ibtopo_fabric_node(swept, i);
		const struct ibtopo_node *o =
			ibtopo_fabric_find_node(orig, n->guid);

		if (o && ibtopo_node_set_desc(n, o->desc, &err))
			return cli_fail(&err);
	}
	return 0;
}

static int sweep(struct ibtopo_fabric **out, struct sim *s,
		 const struct ibtopo_fabric *f,
		 const struct ibtopo_fabric *orig, const struct cli_global *g)
{
	struct cli_global g2 = *g;
	struct cli_source src = { .what = "latest" };
	char db[PATH_MAX + 48];
	pid_t pid = 0;
	int rc;

	if (mkdir(s->dir, 0700))
		return cli_failf("whatif --reroute: cannot create '%s': %s",
				 s->dir, strerror(errno));
	rc = start_sim(&pid, s, f);
	if (!rc)
		rc = sweep_sim(s);
	stop_child(pid);
	if (rc)
		return rc;
	snprintf(db, sizeof(db), "%s/swept.db", s->dir);
	g2.db = db;
	g2.fabric = "reroute";
	g2.node_name_map = "";
	src.node_name_map = NULL;
	rc = cli_load(out, &g2, &src);
	if (!rc)
		rc = rename_nodes(*out, orig);
	return rc;
}

/* ---- the reroute ---- */

/* The CA OpenSM runs from: the first one cabled to a switch. */
static const struct ibtopo_node *sm_node(const struct ibtopo_fabric *f)
{
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		if (n->type != IBTOPO_NODE_CA)
			continue;
		for (unsigned p = 1; p <= n->nports; p++)
			if (n->ports[p] && n->ports[p]->remote &&
			    n->ports[p]->remote->node->type ==
				    IBTOPO_NODE_SWITCH)
				return n;
	}
	return NULL;
}

static int unlink_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static int analyse(struct reroute *r, int side,
		   const struct ibtopo_analyze_opts *ao,
		   const struct cli_global *g)
{
	struct ibtopo_analyze_opts o = *ao;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const struct ibtopo_routes *routes = NULL;

	o.flags &= ~(unsigned)IBTOPO_ANALYZE_NO_ROUTES;
	o.flags |= IBTOPO_ANALYZE_NO_CHECKS | IBTOPO_ANALYZE_NO_HEALTH;
	if (cli_analysis(&r->analysis[side], r->fabric[side], &o, g))
		return EXIT_TROUBLE;
	if (ibtopo_analysis_routes(r->analysis[side], &routes, &err))
		return cli_fail(&err);
	if (!routes)
		return cli_failf("whatif --reroute: no forwarding tables were "
				 "read back %s the failure",
				 side ? "after" : "before");
	if (side)
		r->result.after = routes;
	else
		r->result.before = routes;
	return 0;
}

int reroute_run(struct reroute *out, const struct ibtopo_whatif *w,
		const char *engine, const struct ibtopo_analyze_opts *ao,
		const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *failed = NULL;
	const struct ibtopo_node *sm;
	struct progs p;
	struct sim s = { .engine = engine, .p = &p };
	struct sigaction old[3];
	char dir[PATH_MAX];
	const char *tmpdir = getenv("TMPDIR");
	double t0 = cli_now();
	int rc;

	memset(out, 0, sizeof(*out));
	if (find_progs(&p))
		return EXIT_TROUBLE;
	if (ibtopo_whatif_fabric(&failed, w, &err))
		return cli_fail(&err);
	sm = sm_node(failed);
	if (!sm) {
		ibtopo_fabric_free(failed);
		return cli_failf("whatif --reroute: no CA is left cabled to a "
				 "switch to run OpenSM from");
	}
	snprintf(s.host, sizeof(s.host), "H-%016" PRIx64, sm->guid);
	ibtopo_node_name(out->sm_host, sizeof(out->sm_host), sm);
	snprintf(dir, sizeof(dir), "%s/ibtopo-reroute.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(dir)) {
		ibtopo_fabric_free(failed);
		return cli_failf("whatif --reroute: cannot create a temporary "
				 "directory in '%s': %s",
				 tmpdir && *tmpdir ? tmpdir : "/tmp",
				 strerror(errno));
	}
	rc = 0;
	interrupted = 0;
	catch_signals(old, true);
	for (int side = 0; !rc && side < 2; side++) {
		snprintf(s.dir, sizeof(s.dir), "%s/%s", dir,
			 side ? "after" : "before");
		snprintf(s.sock, sizeof(s.sock), "ibtopo-reroute-%ld-%d",
			 (long)getpid(), side);
		rc = sweep(&out->fabric[side], &s, side ? failed : w->fabric,
			   w->fabric, g);
		if (!rc)
			rc = analyse(out, side, ao, g);
	}
	/* $IBTOPO_REROUTE_KEEP: the net files and the logs, for a look */
	if (getenv("IBTOPO_REROUTE_KEEP") && *getenv("IBTOPO_REROUTE_KEEP"))
		fprintf(stderr, "ibtopo: whatif --reroute: kept '%s'\n", dir);
	else
		nftw(dir, unlink_one, 16, FTW_DEPTH | FTW_PHYS);
	catch_signals(old, false);
	if (interrupted)
		raise(interrupted);
	ibtopo_fabric_free(failed);
	out->result.engine = engine;
	out->result.sm_host = out->sm_host;
	if (!rc)
		cli_step(g, "whatif", t0,
			 "rerouted by opensm -R %s under ibsim, before and "
			 "after",
			 engine);
	return rc ? EXIT_TROUBLE : 0;
}

void reroute_release(struct reroute *r)
{
	for (int i = 0; i < 2; i++) {
		ibtopo_analysis_free(r->analysis[i]);
		ibtopo_fabric_free(r->fabric[i]);
		r->analysis[i] = NULL;
		r->fabric[i] = NULL;
	}
}
