/*
 * cmd_serve.c - ibtopo serve: sweep the fabric at a steady pace and
 * serve the last sweep's metrics and diagram over HTTP.
 *
 * The main thread sweeps and waits for signals (blocked everywhere,
 * taken with sigtimedwait between sweeps); the server's thread answers
 * requests from the texts the last good sweep left, under a mutex. So
 * scrapes never send a MAD, and a signal never lands inside a sweep or
 * a snapshot being stored.
 */
#include "commands.h"
#include "serve_gzip.h"
#include "serve_http.h"
#include "serve_sched.h"
#include "serve_webconfig.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * The default port: the Prometheus wiki's default port allocations have
 * filled 9100-9999, so it is above that range (README.md "Prometheus"
 * says what was checked).
 */
#define SERVE_DEFAULT_PORT "10117"
#define SERVE_DEFAULT_LISTEN "127.0.0.1:" SERVE_DEFAULT_PORT

enum {
	OPT_LISTEN = CLI_LONG,
	OPT_INTERVAL,
	OPT_STORE_EVERY,
	OPT_KEEP_DAYS,
	OPT_TIMEOUT,
	OPT_WEB_CONFIG,
	OPT_SCHEDULER_OUT,
	OPT_SCHEDULER_CMD,
	OPT_STALE_AFTER,
	OPT_COLLECT,
	OPT_ALL_PORTS,
	OPT_TOPOLOGY_EVERY,
};

/* /healthz says 503 after this many failed sweeps in a row. */
#define SERVE_FAILS_UNHEALTHY 3

static const struct cli_opt opts[] = {
	CLI_LONG_OPT(
		OPT_LISTEN, "listen", 1, "ADDR:PORT",
		"where to listen (default " SERVE_DEFAULT_LISTEN
		", loopback only; [::]:PORT or 0.0.0.0:PORT for every address)"),
	CLI_LONG_OPT(OPT_INTERVAL, "interval", 1, "SECONDS",
		     "sweep at most this often (default 60)"),
	CLI_LONG_OPT(OPT_TOPOLOGY_EVERY, "topology-every", 1, "DURATION",
		     "walk the topology at least this often, the sweeps "
		     "between read the port counters only (default 10 x "
		     "--interval; 0: every sweep walks it)"),
	CLI_LONG_OPT(OPT_STORE_EVERY, "store-every", 1, "DURATION",
		     "also store a snapshot this often, not more often than "
		     "--interval: 90s, 30m, 1h, 1d"),
	CLI_LONG_OPT(OPT_KEEP_DAYS, "keep-days", 1, "D",
		     "with --store-every: delete snapshots older than D days"),
	CLI_LONG_OPT(OPT_TIMEOUT, "timeout", 1, "MS",
		     "per MAD timeout (default: the library's)"),
	CLI_LONG_OPT(
		OPT_WEB_CONFIG, "web-config", 1, "FILE",
		"TLS and basic auth: an exporter-toolkit web configuration"),
	CLI_LONG_OPT(
		OPT_SCHEDULER_OUT, "scheduler-out", 1, "FORMAT=FILE",
		"keep FILE current: rewritten (slurm, slurm-block, slurm-yaml "
		"or k8s) when the sweep's tree changes; repeatable"),
	CLI_LONG_OPT(
		OPT_SCHEDULER_CMD, "scheduler-cmd", 1, "CMD",
		"run `sh -c CMD` after a --scheduler-out file was rewritten"),
	CLI_LONG_OPT(OPT_STALE_AFTER, "stale-after", 1, "DURATION",
		     "/healthz says 503 when the served sweep is older "
		     "(default 3 x --interval)"),
	CLI_LONG_OPT(OPT_COLLECT, "collect", 1, "GROUP,...", CLI_COLLECT_HELP),
	CLI_LONG_OPT(OPT_ALL_PORTS, "all-ports", 0, NULL,
		     "sweep every local InfiniBand port's subnet, each with "
		     "its own fabric label, in one /metrics"),
	CLI_OPTS_ANALYSIS,
	{ NULL },
};

static int cmd_serve_exec(const struct cli_cmd *self, int argc, char **argv,
			  struct cli_global *g);

const struct cli_cmd cmd_serve_entry = {
	.name = "serve",
	.summary =
		"sweep the fabric at a steady pace and serve it to Prometheus",
	.args = "[--listen ADDR:PORT] [--interval SECONDS] [--topology-every DURATION] [--stale-after DURATION] [--collect GROUP,...] [--all-ports] [--store-every DURATION [--keep-days D]] [--web-config FILE] [--scheduler-out FORMAT=FILE]... [--scheduler-cmd CMD] " CLI_ARGS_ANALYSIS
		" [-C CA] [-P PORT]",
	.details =
		"Sweeps the fabric (topology and port counters, SMP and PMA Gets\n"
		"only: nothing is reset or set) at start and then once per\n"
		"--interval, and serves the last good sweep:\n"
		"  GET /metrics  what `ibtopo metrics` writes (its --collect\n"
		"                groups too), and the sweeps:\n"
		"                ibtopo_sweeps_total, ibtopo_sweep_errors_total,\n"
		"                ibtopo_last_sweep_success,\n"
		"                ibtopo_sweep_duration_seconds,\n"
		"                ibtopo_last_sweep_mads,\n"
		"                ibtopo_topology_sweeps_total,\n"
		"                ibtopo_topology_change_signs_total,\n"
		"                ibtopo_last_sweep_full,\n"
		"                ibtopo_last_topology_sweep_timestamp_seconds\n"
		"  GET /         the HTML diagram of the last sweep\n"
		"  GET /healthz  ok, how the last sweep went, the sweeps so far,\n"
		"                when the topology was last walked; 503 and\n"
		"                why, in one line, when the served\n"
		"                sweep is older than --stale-after (or none\n"
		"                succeeded within it), or the last 3 failed\n"
		"Anything else is 404, other methods 405, a request with a body\n"
		"413. Responses are gzip when the request's Accept-Encoding takes\n"
		"it. Scrapes never send a MAD. A sweep that fails or comes back\n"
		"partial keeps the last good one served, and counts as an error.\n"
		"A sweep is full (the topology walked: discovery, then the\n"
		"counters) or counters-only (the PMA Gets of the ports the last\n"
		"good sweep read, on its topology, no SMP; a switch whose\n"
		"AllPortSelect sums did not move gets its ports' extended\n"
		"counters only: 2 to 4 MADs a link).\n"
		"It is full at start, after a failed sweep, when a snapshot is\n"
		"due (--store-every), when the topology was last walked\n"
		"--topology-every ago or more (default 10 x --interval; 0: every\n"
		"sweep is full), and, at once in the same sweep, when a\n"
		"counters-only sweep sees a sign of change: a PMA that answered\n"
		"before does not (asked twice again), LinkDownedCounter or\n"
		"LinkErrorRecoveryCounter grew on a port, a port's counters are\n"
		"missing or went back (a reset, or LIDs given anew). A link that\n"
		"comes up or a node that appears shows at the next walk.\n"
		"--listen 127.0.0.1:0 takes a free port; the port bound is\n"
		"printed at start (ibtopo: serve: listening on ADDR:PORT).\n"
		"--web-config FILE (the exporter-toolkit format): tls_server_config\n"
		"with cert_file and key_file serves HTTPS; basic_auth_users maps\n"
		"names to bcrypt hashes (htpasswd -nB), and every request then\n"
		"needs one of them (401 otherwise); a password that passed is\n"
		"remembered (a salted digest of it), so bcrypt runs once per\n"
		"user and password, not on every scrape.\n"
		"--all-ports sweeps the subnet of every active InfiniBand port of\n"
		"every local CA (one per master SM, as discover --all-ports):\n"
		"/metrics holds them all, each by its own fabric label (its\n"
		"name by the store's rule, fe80-<lowest switch GUID>), each family\n"
		"once; / shows the first. Not with -C, -P, --fabric, --store-every\n"
		"or --scheduler-out.\n"
		"--scheduler-out FORMAT=FILE (repeatable) keeps a scheduler's\n"
		"file current, as `ibtopo export --format FORMAT` writes it: after\n"
		"each good sweep it is rewritten (a temporary file renamed over it)\n"
		"when its content changed, and never otherwise; what FILE holds at\n"
		"start counts as written. Each rewrite is logged with the lines\n"
		"added and removed; then --scheduler-cmd CMD runs (`sh -c`, with\n"
		"IBTOPO_SCHEDULER_FILES naming the files rewritten), for example\n"
		"'scontrol reconfigure' or 'kubectl apply -f FILE'.\n"
		"--store-every stores the sweep as a snapshot at that pace\n"
		"(pruned by --keep-days), as `discover --counters` would.\n"
		"SIGTERM and SIGINT stop it after the sweep under way: a snapshot\n"
		"is stored whole or not at all.",
	.opts = opts,
	.exec = cmd_serve_exec,
	.flags = CLI_NEEDS_DB,
};

/*
 * A text responses share, freed when the last of them and the sweeps
 * are done with it: a scrape of 100,000 ports does not copy 500 MB.
 */
struct shared_text {
	pthread_mutex_t *lock; /* the serve_state's: guards refs */
	char *p;
	size_t len;
	struct serve_gzip_part gz; /* p deflated, for gzip responses */
	bool has_gz;
	unsigned refs;
};

/* Drop a reference; called with the lock held. */
static void shared_put_locked(struct shared_text *t)
{
	if (t && --t->refs == 0) {
		serve_gzip_part_release(&t->gz);
		free(t->p);
		free(t);
	}
}

/* serve_http's release callback: takes the lock itself. */
static void shared_release(void *arg)
{
	struct shared_text *t = arg;
	pthread_mutex_t *lock = t->lock;

	pthread_mutex_lock(lock);
	shared_put_locked(t);
	pthread_mutex_unlock(lock);
}

/*
 * What the server's threads serve; everything under `lock`, which the
 * sweeping thread takes to swap in a sweep's texts and the request
 * threads to take a reference to them (and to read the counts).
 */
struct serve_state {
	pthread_mutex_t lock;
	/* the last good sweep's texts; NULL before one */
	struct shared_text *metrics;
	struct shared_text *html;
	uint64_t sweeps;
	uint64_t errors;
	bool last_ok;
	double last_duration;
	time_t last_sweep;
	char last_error[IBTOPO_ERROR_SIZE];
	double started;	    /* cli_now() at start */
	double last_good;   /* cli_now() at the last good sweep's start */
	unsigned fails;	    /* failed sweeps in a row */
	double stale_after; /* seconds */
	/* full sweeps (the topology walked) and counters-only ones */
	uint64_t walks;	  /* sweeps that walked the topology */
	uint64_t signs;	  /* counters-only sweeps that saw a sign */
	bool last_full;	  /* the last sweep walked the topology */
	size_t last_mads; /* MADs the last sweep sent */
	time_t last_walk; /* the last good walk's start; 0: none */
};

/* A sink into *m. */
static struct ibtopo_sink buffer_sink(struct ibtopo_buffer *m)
{
	struct ibtopo_sink sink = { IBTOPO_SINK_VERSION, IBTOPO_FORMAT_TEXT,
				    ibtopo_write_buffer, m, 0 };

	return sink;
}

/* The sweep's own families, after the fabric's. */
static void sweep_metrics(struct ibtopo_buffer *m, const struct serve_state *s)
{
	struct ibtopo_sink sink = buffer_sink(m);

	ibtopo_sink_printf(
		&sink,
		"# HELP ibtopo_sweeps_total Sweeps of the fabric since "
		"the server started\n"
		"# TYPE ibtopo_sweeps_total counter\n"
		"ibtopo_sweeps_total %" PRIu64 "\n",
		s->sweeps);
	ibtopo_sink_printf(
		&sink,
		"# HELP ibtopo_sweep_errors_total Sweeps that failed "
		"or came back partial (the last good one is served)\n"
		"# TYPE ibtopo_sweep_errors_total counter\n"
		"ibtopo_sweep_errors_total %" PRIu64 "\n",
		s->errors);
	ibtopo_sink_printf(&sink,
			   "# HELP ibtopo_last_sweep_success 1 when the last "
			   "sweep reached every node\n"
			   "# TYPE ibtopo_last_sweep_success gauge\n"
			   "ibtopo_last_sweep_success %d\n",
			   s->last_ok ? 1 : 0);
	ibtopo_sink_printf(&sink,
			   "# HELP ibtopo_sweep_duration_seconds How long the "
			   "last sweep took\n"
			   "# TYPE ibtopo_sweep_duration_seconds gauge\n"
			   "ibtopo_sweep_duration_seconds %.6f\n",
			   s->last_duration);
	ibtopo_sink_printf(
		&sink,
		"# HELP ibtopo_last_sweep_timestamp_seconds When the "
		"last sweep started, seconds since the epoch\n"
		"# TYPE ibtopo_last_sweep_timestamp_seconds gauge\n"
		"ibtopo_last_sweep_timestamp_seconds %lld\n",
		(long long)s->last_sweep);
	ibtopo_sink_printf(&sink,
			   "# HELP ibtopo_last_sweep_mads MADs the last sweep "
			   "sent (SMPs and PMA Gets, every try counted)\n"
			   "# TYPE ibtopo_last_sweep_mads gauge\n"
			   "ibtopo_last_sweep_mads %zu\n",
			   s->last_mads);
	ibtopo_sink_printf(
		&sink,
		"# HELP ibtopo_topology_sweeps_total Sweeps that walked "
		"the topology (discovery and counters); the others of "
		"ibtopo_sweeps_total read the port counters only\n"
		"# TYPE ibtopo_topology_sweeps_total counter\n"
		"ibtopo_topology_sweeps_total %" PRIu64 "\n",
		s->walks);
	ibtopo_sink_printf(
		&sink,
		"# HELP ibtopo_topology_change_signs_total Counters-only "
		"sweeps that saw a sign of change (a PMA silent, "
		"LinkDowned or LinkErrorRecovery grown, counters missing "
		"or gone back) and walked the topology at once\n"
		"# TYPE ibtopo_topology_change_signs_total counter\n"
		"ibtopo_topology_change_signs_total %" PRIu64 "\n",
		s->signs);
	ibtopo_sink_printf(&sink,
			   "# HELP ibtopo_last_sweep_full 1 when the last "
			   "sweep walked the topology, 0 when it read the "
			   "counters only\n"
			   "# TYPE ibtopo_last_sweep_full gauge\n"
			   "ibtopo_last_sweep_full %d\n",
			   s->last_full ? 1 : 0);
	ibtopo_sink_printf(
		&sink,
		"# HELP ibtopo_last_topology_sweep_timestamp_seconds When "
		"the last good sweep that walked the topology started, "
		"seconds since the epoch\n"
		"# TYPE ibtopo_last_topology_sweep_timestamp_seconds gauge\n"
		"ibtopo_last_topology_sweep_timestamp_seconds %lld\n",
		(long long)s->last_walk);
}

static const char html_none[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	"<title>ibtopo</title></head><body><p>No sweep of the fabric has "
	"succeeded yet.</p></body></html>\n";

/* `t` first in the reply, a reference taken; with the lock held. */
static void share(struct serve_http_reply *out, struct shared_text *t)
{
	t->refs++;
	out->shared = t->p;
	out->shared_len = t->len;
	out->shared_gz = t->has_gz ? &t->gz : NULL;
	out->release = shared_release;
	out->release_arg = t;
}

/* Why /healthz says 503, in one line into `sink`; false when healthy. */
static bool unhealthy(struct ibtopo_sink *sink, const struct serve_state *s)
{
	double now = cli_now();

	if (s->fails >= SERVE_FAILS_UNHEALTHY) {
		ibtopo_sink_printf(sink, "the last %u sweeps failed: %s\n",
				   s->fails, s->last_error);
		return true;
	}
	if (s->last_good > 0 && now - s->last_good > s->stale_after) {
		ibtopo_sink_printf(sink,
				   "stale: the served sweep is %.0f s old "
				   "(--stale-after %g s)\n",
				   now - s->last_good, s->stale_after);
		return true;
	}
	if (s->last_good <= 0 && now - s->started > s->stale_after) {
		ibtopo_sink_printf(sink,
				   "no sweep has succeeded in %.0f s "
				   "(--stale-after %g s)\n",
				   now - s->started, s->stale_after);
		return true;
	}
	return false;
}

static void healthz(struct ibtopo_sink *sink, const struct serve_state *s,
		    struct serve_http_reply *out)
{
	if (unhealthy(sink, s)) {
		out->status = 503;
		return;
	}
	ibtopo_sink_printf(
		sink, "ok\nlast sweep: %s%s%s\nsweeps: %" PRIu64 "\n",
		s->sweeps ? (s->last_ok ? "success" : "failed") : "none yet",
		s->last_ok || !s->sweeps ? "" : ": ",
		s->last_ok || !s->sweeps ? "" : s->last_error, s->sweeps);
	ibtopo_sink_printf(sink, "topology sweeps: %" PRIu64 "\n", s->walks);
	if (s->last_walk) {
		char when[32];
		struct tm tm;

		gmtime_r(&s->last_walk, &tm);
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
		ibtopo_sink_printf(sink, "topology walked: %s\n", when);
	} else {
		ibtopo_sink_printf(sink, "topology walked: never\n");
	}
}

static void on_get(void *arg, enum serve_route route,
		   struct serve_http_reply *out)
{
	struct serve_state *s = arg;
	struct ibtopo_buffer m = { 0 };
	struct ibtopo_sink sink = buffer_sink(&m);

	out->status = 200;
	pthread_mutex_lock(&s->lock);
	switch (route) {
	case SERVE_ROUTE_METRICS:
		if (s->metrics)
			share(out, s->metrics);
		sweep_metrics(&m, s);
		out->content_type = "text/plain; version=0.0.4; charset=utf-8";
		break;
	case SERVE_ROUTE_ROOT:
		if (s->html)
			share(out, s->html);
		else
			ibtopo_write_buffer(&m, html_none, strlen(html_none));
		out->content_type = "text/html; charset=utf-8";
		break;
	case SERVE_ROUTE_HEALTHZ:
		healthz(&sink, s, out);
		break;
	case SERVE_ROUTE_NONE:
		ibtopo_sink_printf(&sink,
				   "not found: GET /metrics, / or /healthz\n");
		out->status = 404;
		break;
	}
	pthread_mutex_unlock(&s->lock);
	if (!m.text && !out->shared)
		out->status = 500;
	out->body = m.text;
	out->len = m.len;
}

/* The fabrics of one sweep: one, or with --all-ports one per subnet. */
#define SERVE_MAX_FABRICS 16
struct serve_set {
	size_t n;
	struct ibtopo_fabric *f[SERVE_MAX_FABRICS];
	struct ibtopo_analysis *an[SERVE_MAX_FABRICS];
	char key[SERVE_MAX_FABRICS][80]; /* "CA/PORT", "" for one fabric */
};

static void set_release(struct serve_set *w)
{
	for (size_t i = 0; i < w->n; i++) {
		ibtopo_analysis_free(w->an[i]);
		ibtopo_fabric_free(w->f[i]);
	}
	w->n = 0;
}

/* What the command was asked, and what lasts across sweeps. */
struct serve_run {
	const struct cli_global *g;
	struct ibtopo_discover_opts dopts;
	char fabric_name[72]; /* of the last stored sweep, or --fabric */
	double store_every;   /* seconds; 0 = never */
	unsigned keep_days;
	struct ibtopo_store *store;
	double last_store; /* cli_now() of the last snapshot stored */
	bool stored_once;
	struct ibtopo_name_map *names;
	struct ibtopo_analyze_opts ao; /* --roots, ...: every sweep's */
	unsigned collect;	       /* --collect: series groups */
	/* the last good sweep of each fabric (key: the local port swept
	 * through, "" without --all-ports): port health and the findings
	 * are what grew since it, never lifetime totals; none before one */
	struct serve_set prev;
	bool all_ports;		  /* --all-ports */
	struct serve_sched sched; /* --scheduler-out */
	/* --topology-every: seconds; 0: every sweep walks the topology */
	double topology_every;
	double last_walk; /* cli_now() of the last good walk's start */
	bool walk_next;	  /* the last sweep failed: the next one walks */
	struct ibtopo_mad_stats mads; /* of the last discovery (dopts.stats) */
};

/* What a sweep did: walk the topology, or read the counters only. */
struct sweep_kind {
	bool full; /* the topology was walked */
	bool sign; /* a counters-only sweep saw a sign of change first */
	size_t mads;
	char why[320]; /* why it walked, or the sign seen */
};

/* The diagram of the sweep's analysis as one HTML page, in memory. */
static int render_html(struct ibtopo_buffer *out, struct ibtopo_analysis *an,
		       struct ibtopo_error *err)
{
	struct ibtopo_diagram_opts d = IBTOPO_DIAGRAM_OPTS_INIT;
	struct ibtopo_sink sink = { IBTOPO_SINK_VERSION, IBTOPO_FORMAT_TEXT,
				    ibtopo_write_buffer, out, 0 };
	int rc = ibtopo_analysis_findings(an, &d.findings, err);

	return rc ? rc : ibtopo_diagram_write(&sink, "html", an, &d, err);
}

/* A snapshot is due at `now` (--store-every). */
static bool store_due(const struct serve_run *r, double now)
{
	return r->store &&
	       (!r->stored_once || now - r->last_store >= r->store_every);
}

static void store_sweep(struct serve_run *r, struct ibtopo_fabric *f)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	double now = cli_now();
	int64_t id = 0;
	size_t pruned = 0;
	const char *fabric;

	if (!store_due(r, now))
		return;
	if (cli_store_save(&id, r->store, f, r->g, 0, &err)) {
		fprintf(stderr, "ibtopo: warning: storing the sweep: %s\n",
			err.message);
		return;
	}
	r->last_store = now;
	r->stored_once = true;
	/* the fabric the store chose names the sweeps from now on */
	fabric = ibtopo_fabric_meta(f)->fabric;
	if (fabric)
		snprintf(r->fabric_name, sizeof(r->fabric_name), "%s", fabric);
	cli_step(r->g, "store", now, "saved as snapshot %lld", (long long)id);
	if (r->keep_days &&
	    ibtopo_store_prune_in(NULL, &pruned, r->store, fabric, 0,
				  time(NULL) - (time_t)r->keep_days * 86400,
				  &err))
		fprintf(stderr, "ibtopo: warning: pruning snapshots: %s\n",
			err.message);
	else if (pruned)
		cli_step(r->g, "prune", now, "%zu snapshots deleted", pruned);
}

/* A shared text of one reference that takes over m's bytes. */
static int shared_new(struct shared_text **out, pthread_mutex_t *lock,
		      struct ibtopo_buffer *m, struct ibtopo_error *err)
{
	struct shared_text *t = calloc(1, sizeof(*t));

	if (!t) {
		snprintf(err->message, sizeof(err->message), "out of memory");
		return IBTOPO_ENOMEM;
	}
	t->lock = lock;
	t->p = m->text;
	t->len = m->len;
	t->refs = 1;
	/* deflated once here, in the sweeping thread, for every gzip
	 * scrape until the next sweep; without it they get plain text */
	t->has_gz = serve_gzip_part_init(&t->gz, t->p, t->len) == 0;
	*m = (struct ibtopo_buffer){ 0 };
	*out = t;
	return 0;
}

/* The previous good sweep through the port `key`, or NULL. */
static struct ibtopo_fabric *prev_of(const struct serve_run *r, const char *key)
{
	for (size_t i = 0; i < r->prev.n; i++)
		if (!strcmp(r->prev.key[i], key))
			return r->prev.f[i];
	return NULL;
}

/* Fabric f swept through `key` into w, analysed against its last. */
static int set_add(struct serve_run *r, struct serve_set *w,
		   struct ibtopo_fabric *f, const char *key,
		   struct ibtopo_error *err)
{
	size_t i = w->n++;
	int rc = 0;

	w->f[i] = f;
	snprintf(w->key[i], sizeof(w->key[i]), "%s", key);
	if (r->names)
		rc = ibtopo_name_map_apply(r->names, f, NULL, err);
	r->ao.since = prev_of(r, key);
	if (!rc)
		rc = ibtopo_analysis_new(&w->an[i], f, &r->ao, err);
	if (!rc && r->g->verbose)
		ibtopo_analysis_set_log(w->an[i], cli_analysis_log, NULL);
	return rc;
}

/* A subnet already in w (the same fabric name: the same switches)? */
static bool set_has(const struct serve_set *w, const struct ibtopo_fabric *f)
{
	char a[256], b[256];

	ibtopo_metrics_fabric_name(a, sizeof(a), f);
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(a,
			    ibtopo_metrics_fabric_name(b, sizeof(b), w->f[i])))
			return true;
	return false;
}

/*
 * --all-ports: every active InfiniBand port of every local CA, as
 * `discover --all-ports` takes them (one per master SM seen), each
 * subnet once; any discovery that fails fails the sweep.
 */
static int sweep_ports(struct serve_run *r, struct serve_set *w,
		       struct sweep_kind *k, struct ibtopo_error *err)
{
	struct ibtopo_local_port *ports = NULL;
	uint64_t seen[SERVE_MAX_FABRICS];
	size_t np = 0, nseen = 0;
	int rc = ibtopo_local_ports(&ports, &np, r->dopts.timeout_ms, err);

	for (size_t i = rc ? np :
			     ibtopo_local_ports_next(ports, np, 0, seen, 0);
	     !rc && i < np && w->n < SERVE_MAX_FABRICS;
	     i = ibtopo_local_ports_next(ports, np, i + 1, seen, nseen)) {
		struct ibtopo_discover_opts o = r->dopts;
		struct ibtopo_fabric *f = NULL;
		char key[80];

		o.ca = ports[i].ca;
		o.port = (int)ports[i].port;
		memset(&r->mads, 0, sizeof(r->mads));
		rc = ibtopo_fabric_discover(&f, &o, err);
		k->mads += r->mads.sent;
		if (rc)
			break;
		if (set_has(w, f)) {
			ibtopo_fabric_free(f);
			continue;
		}
		ibtopo_local_ports_seen(seen, &nseen, &ports[i], f);
		snprintf(key, sizeof(key), "%s/%u", ports[i].ca, ports[i].port);
		rc = set_add(r, w, f, key, err);
	}
	if (!rc && !w->n) {
		snprintf(err->message, sizeof(err->message),
			 "no active InfiniBand port to sweep");
		rc = IBTOPO_ENODEV;
	}
	free(ports);
	return rc;
}

/* The sweep's fabrics walked: one through -C/-P, or --all-ports. */
static int sweep_set(struct serve_run *r, struct serve_set *w,
		     struct sweep_kind *k, struct ibtopo_error *err)
{
	struct ibtopo_fabric *f = NULL;
	int rc;

	if (r->all_ports)
		return sweep_ports(r, w, k, err);
	memset(&r->mads, 0, sizeof(r->mads));
	rc = ibtopo_fabric_discover(&f, &r->dopts, err);
	k->mads += r->mads.sent;
	return rc ? rc : set_add(r, w, f, "", err);
}

/* Does the sweep starting at t0 walk the topology? Why, into k->why. */
static bool wants_walk(const struct serve_run *r, double t0,
		       struct sweep_kind *k)
{
	if (!r->prev.n)
		snprintf(k->why, sizeof(k->why), "no good sweep yet");
	else if (r->walk_next)
		snprintf(k->why, sizeof(k->why), "the last sweep failed");
	else if (!r->topology_every)
		snprintf(k->why, sizeof(k->why), "--topology-every 0");
	else if (t0 - r->last_walk >= r->topology_every)
		snprintf(k->why, sizeof(k->why),
			 "walked %.0f s ago, --topology-every %g s",
			 t0 - r->last_walk, r->topology_every);
	else if (store_due(r, t0))
		snprintf(k->why, sizeof(k->why), "a snapshot is due");
	else
		return false;
	return true;
}

/*
 * A counters-only sweep: the counters of each fabric of the last good
 * sweep read again on its topology, into w. A sign of change in any of
 * them leaves w empty, k->sign set and the sign in k->why.
 */
static int sweep_counters(struct serve_run *r, struct serve_set *w,
			  struct sweep_kind *k, struct ibtopo_error *err)
{
	struct ibtopo_fabric *f[SERVE_MAX_FABRICS] = { NULL };
	struct ibtopo_discover_opts o = r->dopts;
	struct ibtopo_counters_signs sg;
	size_t n = r->prev.n, signs = 0;
	int rc = 0;

	/* a PMA still silent after two more tries is sign enough: the
	 * walk that follows asks with every retry */
	if (o.retries > 2)
		o.retries = 2;
	for (size_t i = 0; i < n && !rc; i++) {
		memset(&r->mads, 0, sizeof(r->mads));
		rc = ibtopo_fabric_discover_counters(&f[i], r->prev.f[i], &o,
						     &sg, err);
		k->mads += r->mads.sent;
		if (!rc && sg.signs && !signs)
			snprintf(k->why, sizeof(k->why),
				 "%zu sign%s of change, %s", sg.signs,
				 sg.signs == 1 ? "" : "s", sg.first);
		signs += rc ? 0 : sg.signs;
	}
	for (size_t i = 0; i < n && !rc && !signs; i++) {
		rc = set_add(r, w, f[i], r->prev.key[i], err);
		f[i] = NULL; /* w's now, also on failure */
	}
	for (size_t i = 0; i < n; i++)
		ibtopo_fabric_free(f[i]);
	k->sign = !rc && signs;
	return rc;
}

/*
 * The sweep's fabrics: walked, or their counters read on the last good
 * sweep's topology and, on a sign of change there, walked at once.
 */
static int sweep_fabrics(struct serve_run *r, struct serve_set *w,
			 struct sweep_kind *k, double t0,
			 struct ibtopo_error *err)
{
	int rc;

	k->full = wants_walk(r, t0, k);
	if (!k->full) {
		rc = sweep_counters(r, w, k, err);
		if (rc || !k->sign)
			return rc;
		cli_step(r->g, "counters", t0, "%s; walking the topology",
			 k->why);
		k->full = true;
	}
	return sweep_set(r, w, k, err);
}

/* The metrics of every fabric of w, one exposition. */
static int write_set(const struct serve_run *r, const struct serve_set *w,
		     const struct ibtopo_sink *sink, struct ibtopo_error *err)
{
	struct ibtopo_metrics_opts mo[SERVE_MAX_FABRICS];

	for (size_t i = 0; i < w->n; i++) {
		mo[i] = (struct ibtopo_metrics_opts)IBTOPO_METRICS_OPTS_INIT;
		/* --all-ports: each subnet by its own name */
		mo[i].fabric_name = !r->all_ports && *r->fabric_name ?
					    r->fabric_name :
					    NULL;
		mo[i].collect = r->collect;
	}
	return ibtopo_metrics_write_many(sink, w->an, mo, w->n, err);
}

/* One sweep: on success the served texts are replaced. */
static void sweep(struct serve_run *r, struct serve_state *s)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_buffer text = { 0 }, html = { 0 };
	struct ibtopo_sink sink = { IBTOPO_SINK_VERSION, IBTOPO_FORMAT_TEXT,
				    ibtopo_write_buffer, &text, 0 };
	struct shared_text *old_text = NULL, *old_html = NULL;
	struct shared_text *new_text = NULL, *new_html = NULL;
	struct serve_set w = { 0 };
	struct sweep_kind k = { .full = false };
	time_t started = time(NULL);
	double t0 = cli_now(), took;
	bool was_failing;
	int rc;

	rc = sweep_fabrics(r, &w, &k, t0, &err);
	if (!rc)
		store_sweep(r, w.f[0]);
	if (!rc)
		rc = write_set(r, &w, &sink, &err);
	if (!rc)
		serve_sched_update(&r->sched, w.an[0]);
	/* the diagram: of the first fabric */
	if (!rc && render_html(&html, w.an[0], &err)) {
		fprintf(stderr, "ibtopo: warning: no diagram: %s\n",
			err.message);
		free(html.text);
		html = (struct ibtopo_buffer){ 0 };
	}
	/* the sweep's duration leaves out the gzip of its texts */
	took = cli_now() - t0;
	if (!rc)
		rc = shared_new(&new_text, &s->lock, &text, &err);
	if (!rc && html.text && shared_new(&new_html, &s->lock, &html, &err))
		rc = IBTOPO_ENOMEM;
	if (!rc)
		cli_step(r->g, "gzip", t0 + took, "metrics %zu bytes to %zu",
			 new_text->len, new_text->gz.len);
	pthread_mutex_lock(&s->lock);
	was_failing = s->sweeps && !s->last_ok;
	s->sweeps++;
	s->last_ok = !rc;
	s->last_duration = took;
	s->last_sweep = started;
	s->fails = rc ? s->fails + 1 : 0;
	if (!rc)
		s->last_good = t0;
	s->last_mads = k.mads;
	s->last_full = k.full;
	s->walks += k.full;
	s->signs += k.sign;
	if (!rc && k.full)
		s->last_walk = started;
	/* the log says when sweeps start failing, why, and when they
	 * recover; not the same line once per interval */
	if (rc && (s->sweeps == 1 || !was_failing ||
		   strcmp(s->last_error, err.message) != 0))
		fprintf(stderr, "ibtopo: warning: sweep failed: %s\n",
			err.message);
	else if (!rc && was_failing)
		fprintf(stderr,
			"ibtopo: sweeps succeed again (%" PRIu64
			" failed so far)\n",
			s->errors);
	if (rc) {
		s->errors++;
		snprintf(s->last_error, sizeof(s->last_error), "%s",
			 err.message);
	} else {
		old_text = s->metrics;
		s->metrics = new_text;
		new_text = NULL;
		if (new_html) {
			old_html = s->html;
			s->html = new_html;
			new_html = NULL;
		}
	}
	shared_put_locked(old_text);
	shared_put_locked(old_html);
	shared_put_locked(new_text);
	shared_put_locked(new_html);
	pthread_mutex_unlock(&s->lock);
	if (!rc)
		cli_step(r->g, "sweep", t0,
			 "%s%s%s, %zu fabric%s, %zu nodes, %zu links, %zu MADs",
			 k.full ? "full (" : "counters only",
			 k.full ? k.why : "", k.full ? ")" : "", w.n,
			 w.n == 1 ? "" : "s", ibtopo_fabric_node_count(w.f[0]),
			 ibtopo_fabric_link_count(w.f[0]), k.mads);
	/* the clock of --topology-every runs from the last good walk */
	if (!rc && k.full)
		r->last_walk = t0;
	r->walk_next = rc != 0;
	free(text.text);
	free(html.text);
	for (size_t i = 0; i < w.n; i++) {
		ibtopo_analysis_free(w.an[i]);
		w.an[i] = NULL;
	}
	/* a good sweep is the next one's previous */
	if (!rc) {
		set_release(&r->prev);
		r->prev = w;
	} else {
		set_release(&w);
	}
}

/* "90", "90s", "30m", "1h", "1d" into seconds; false when malformed. */
static bool parse_duration(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || !(v > 0))
		return false;
	switch (*end) {
	case '\0':
	case 's':
		break;
	case 'm':
		v *= 60;
		break;
	case 'h':
		v *= 3600;
		break;
	case 'd':
		v *= 86400;
		break;
	default:
		return false;
	}
	if (*end && end[1])
		return false;
	*out = v;
	return v <= 366.0 * 86400;
}

/* A duration as parse_duration() reads it, or 0 ("0", "0s", ...). */
static bool parse_every(const char *s, double *out)
{
	char *end;

	if (strtod(s, &end) == 0 && end != s &&
	    (!*end || (strchr("smhd", *end) && !end[1]))) {
		*out = 0;
		return true;
	}
	return parse_duration(s, out);
}

/* A port: 1 to 5 digits, 0 to 65535. */
static bool port_ok(const char *p)
{
	size_t n = strspn(p, "0123456789");

	return n > 0 && n <= 5 && p[n] == '\0' && strtoul(p, NULL, 10) <= 65535;
}

/*
 * ADDR:PORT or [ADDR6]:PORT into a socket address, and the host part as
 * written into host (for the line that says where serve listens).
 */
static int parse_listen(const char *arg, struct sockaddr_storage *out,
			socklen_t *outlen, char host[256], char *msg,
			size_t msglen)
{
	struct addrinfo hints = { 0 }, *res = NULL;
	const char *colon;
	int rc;

	if (arg[0] == '[') {
		const char *close = strchr(arg, ']');

		if (!close || close == arg + 1 || close[1] != ':' ||
		    close - arg - 1 >= 256) {
			snprintf(msg, msglen, "bad --listen '%s' ([ADDR]:PORT)",
				 arg);
			return -1;
		}
		snprintf(host, 256, "%.*s", (int)(close - arg - 1), arg + 1);
		colon = close + 1;
	} else {
		colon = strrchr(arg, ':');
		if (!colon || colon == arg || colon - arg >= 256) {
			snprintf(msg, msglen,
				 "bad --listen '%s' (ADDR:PORT, e.g. "
				 "127.0.0.1:" SERVE_DEFAULT_PORT ")",
				 arg);
			return -1;
		}
		snprintf(host, 256, "%.*s", (int)(colon - arg), arg);
	}
	if (!port_ok(colon + 1)) {
		snprintf(msg, msglen,
			 "bad --listen '%s': port '%s' is not 0 to 65535", arg,
			 colon + 1);
		return -1;
	}
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE;
	rc = getaddrinfo(host, colon + 1, &hints, &res);
	if (rc || !res) {
		snprintf(msg, msglen, "bad --listen '%s': %s", arg,
			 rc ? gai_strerror(rc) : "no address");
		return -1;
	}
	memcpy(out, res->ai_addr, res->ai_addrlen);
	*outlen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/*
 * Sweep at `interval`, until SIGTERM or SIGINT. The signals are looked
 * at before every sweep, also when sweeps take longer than the interval
 * and the next one is due at once.
 */
static void sweep_loop(struct serve_run *r, struct serve_state *s,
		       const sigset_t *stop, double interval)
{
	double next = cli_now();

	for (;;) {
		struct timespec ts = { 0, 0 };
		double now = cli_now(), wait = next - now;
		int sig;

		if (wait > 0) {
			ts.tv_sec = (time_t)wait;
			ts.tv_nsec = (long)((wait - floor(wait)) * 1e9);
		}
		sig = sigtimedwait(stop, NULL, &ts);
		if (sig == SIGTERM || sig == SIGINT) {
			cli_step(r->g, "stop", now, "signal %d", sig);
			return;
		}
		if (cli_now() < next)
			continue;
		sweep(r, s);
		/* at most once per interval, from a sweep's start */
		next += interval;
		if (next < cli_now())
			next = cli_now();
	}
}

/* The options that are not the run's own. */
struct serve_args {
	const char *listen;
	const char *web_path;
	double interval;
	double stale_after; /* 0: 3 x interval */
};

/* A whole decimal number from 1 to max; false when it is not one. */
static bool parse_count(const char *arg, unsigned long max, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (end == arg || *end || !v || v > max)
		return false;
	*out = (unsigned)v;
	return true;
}

/* The command line into r and a; 0, or the exit status of a usage error. */
static int parse_args(const struct cli_cmd *self, struct cli_global *g,
		      int argc, char **argv, struct serve_run *r,
		      struct serve_args *a)
{
	struct cli_state st = { .analyze = &r->ao, .global = g };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	char msg[512];
	char *end;
	int c;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_LISTEN:
			a->listen = st.optarg;
			break;
		case OPT_INTERVAL:
			a->interval = strtod(st.optarg, &end);
			if (end == st.optarg || *end || !(a->interval >= 0.1) ||
			    a->interval > 86400)
				return cli_usage_error(
					self,
					"bad --interval '%s' (seconds, 0.1 to 86400)",
					st.optarg);
			break;
		case OPT_STORE_EVERY:
			if (!parse_duration(st.optarg, &r->store_every))
				return cli_usage_error(
					self,
					"bad --store-every '%s' (90s, 30m, 1h, 1d)",
					st.optarg);
			break;
		case OPT_KEEP_DAYS:
			if (!parse_count(st.optarg, 36500, &r->keep_days))
				return cli_usage_error(
					self,
					"bad --keep-days '%s' (1 or more)",
					st.optarg);
			break;
		case OPT_TIMEOUT:
			if (!parse_count(st.optarg, 600000,
					 &r->dopts.timeout_ms))
				return cli_usage_error(
					self,
					"bad timeout '%s' (milliseconds, 1 to 600000)",
					st.optarg);
			break;
		case OPT_WEB_CONFIG:
			a->web_path = st.optarg;
			break;
		case OPT_SCHEDULER_OUT:
			if (serve_sched_add(&r->sched, st.optarg, msg,
					    sizeof(msg)))
				return cli_usage_error(self, "%s", msg);
			break;
		case OPT_SCHEDULER_CMD:
			r->sched.cmd = st.optarg;
			break;
		case OPT_STALE_AFTER:
			if (!parse_duration(st.optarg, &a->stale_after))
				return cli_usage_error(
					self,
					"bad --stale-after '%s' (90s, 30m, 1h, 1d)",
					st.optarg);
			break;
		case OPT_COLLECT:
			if (ibtopo_metrics_collect_parse(st.optarg, &r->collect,
							 &err))
				return cli_usage_error(self, "%s", err.message);
			break;
		case OPT_ALL_PORTS:
			r->all_ports = true;
			break;
		case OPT_TOPOLOGY_EVERY:
			if (!parse_every(st.optarg, &r->topology_every))
				return cli_usage_error(
					self,
					"bad --topology-every '%s' (0, 90s, 30m, 1h, 1d)",
					st.optarg);
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (st.optind < argc)
		return cli_usage_error(self, "unexpected argument '%s'",
				       argv[st.optind]);
	if (r->sched.cmd && !r->sched.n)
		return cli_usage_error(self,
				       "--scheduler-cmd runs after a "
				       "--scheduler-out rewrite; none given");
	if (r->all_ports && (r->store_every || r->sched.n || cli_fabric(r->g) ||
			     r->g->ca || r->g->port))
		return cli_usage_error(
			self, "--all-ports chooses the ports and names "
			      "each subnet; not with -C, -P, --fabric, "
			      "--store-every or --scheduler-out");
	if (r->keep_days && !r->store_every)
		return cli_usage_error(self,
				       "--keep-days prunes what --store-every "
				       "stores; none given");
	/* a snapshot is a sweep: none can be stored more often */
	if (r->store_every && r->store_every < a->interval)
		return cli_usage_error(
			self,
			"--store-every %g s is shorter than --interval %g s",
			r->store_every, a->interval);
	if (r->topology_every < 0)
		r->topology_every = 10 * a->interval;
	if (r->topology_every && r->topology_every < a->interval)
		return cli_usage_error(
			self,
			"--topology-every %g s is shorter than --interval %g s "
			"(0: every sweep walks the topology)",
			r->topology_every, a->interval);
	if (!a->stale_after)
		a->stale_after = 3 * a->interval;
	if (a->stale_after < a->interval)
		return cli_usage_error(
			self,
			"--stale-after %g s is shorter than --interval %g s",
			a->stale_after, a->interval);
	return 0;
}

static int cmd_serve_exec(const struct cli_cmd *self, int argc, char **argv,
			  struct cli_global *g)
{
	struct ibtopo_discover_opts dinit = IBTOPO_DISCOVER_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct serve_state s = { .lock = PTHREAD_MUTEX_INITIALIZER,
				 .started = cli_now() };
	struct serve_run r = { .g = g,
			       .ao = IBTOPO_ANALYZE_OPTS_INIT,
			       .topology_every = -1 };
	struct serve_args a = { SERVE_DEFAULT_LISTEN, NULL, 60, 0 };
	struct serve_webconfig web = { NULL, NULL, 0, NULL, NULL };
	struct sockaddr_storage addr;
	struct serve_http *http = NULL;
	const char *names;
	sigset_t stop, old;
	socklen_t addrlen = 0;
	char msg[512], host[256];
	int rc;

	r.dopts = dinit;
	if (cli_fabric(g))
		snprintf(r.fabric_name, sizeof(r.fabric_name), "%s",
			 cli_fabric(g));
	r.sched.xo = (struct ibtopo_export_opts)IBTOPO_EXPORT_OPTS_INIT;
	rc = parse_args(self, g, argc, argv, &r, &a);
	if (!rc &&
	    parse_listen(a.listen, &addr, &addrlen, host, msg, sizeof(msg)))
		rc = cli_usage_error(self, "%s", msg);
	if (!rc && a.web_path &&
	    serve_webconfig_load(&web, a.web_path, msg, sizeof(msg)))
		rc = cli_failf("--web-config: %s", msg);
	if (rc)
		goto out_free;
	s.stale_after = a.stale_after;
	rc = EXIT_TROUBLE;
	r.dopts.ca = g->ca;
	r.dopts.port = g->port;
	r.dopts.flags = IBTOPO_DISCOVER_COUNTERS;
	r.dopts.warn = cli_warn;
	r.dopts.stats = &r.mads;
	names = cli_node_name_map(g);
	/* --node-name-map -: the map read from standard input */
	if (cli_stdin_name_map_load(g, &r.names, &err) ||
	    (!r.names && names &&
	     ibtopo_name_map_load(&r.names, names, &err))) {
		rc = cli_fail(&err);
		goto out_free;
	}
	if (r.store_every && cli_open_store(&r.store, g, 0, &err)) {
		rc = cli_fail(&err);
		goto out_free;
	}

	/* blocked before the server's thread starts: it inherits the mask */
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	signal(SIGPIPE, SIG_IGN);
	if (serve_http_start(&http, (const struct sockaddr *)&addr, addrlen,
			     &web, on_get, &s, msg, sizeof(msg))) {
		rc = cli_failf("--listen '%s': %s", a.listen, msg);
		goto out_unblock;
	}
	snprintf(msg, sizeof(msg), strchr(host, ':') ? "[%s]:%u" : "%s:%u",
		 host, serve_http_port(http));
	fprintf(stderr, "ibtopo: serve: listening on %s\n", msg);
	fprintf(stderr, "ibtopo: serving %s://%s/metrics every %g s%s\n",
		web.cert_pem ? "https" : "http", msg, a.interval,
		web.nusers ? ", basic auth" : "");
	sweep_loop(&r, &s, &stop, a.interval);
	rc = EXIT_CLEAN;
	/* every response released: the texts are ours alone again */
	serve_http_stop(http);
	pthread_mutex_lock(&s.lock);
	shared_put_locked(s.metrics);
	shared_put_locked(s.html);
	s.metrics = s.html = NULL;
	pthread_mutex_unlock(&s.lock);
out_unblock:
	pthread_sigmask(SIG_SETMASK, &old, NULL);
out_free:
	ibtopo_store_free(r.store);
	ibtopo_name_map_free(r.names);
	set_release(&r.prev);
	serve_sched_release(&r.sched);
	serve_webconfig_release(&web);
	return rc;
}
