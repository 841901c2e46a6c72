/* cli.c - option tables, help, errors, and loading fabrics for commands */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* "usage: ibtopo [--db FILE] NAME ARGS": --db only where it means something */
static void print_usage_line(FILE *f, const struct cli_cmd *cmd)
{
	fprintf(f, "usage: ibtopo %s%s %s\n",
		cmd->flags & CLI_NEEDS_DB ? "[--db FILE] " : "", cmd->name,
		cmd->args ? cmd->args : "");
}

static void print_help(FILE *f, const struct cli_cmd *cmd)
{
	print_usage_line(f, cmd);
	fprintf(f, "\n%s\n", cmd->summary);
	if (cmd->opts && cmd->opts[0].long_name) {
		fprintf(f, "\noptions:\n");
		for (const struct cli_opt *o = cmd->opts; o->long_name; o++) {
			char left[64];

			if (o->short_name)
				snprintf(left, sizeof(left), "-%c, --%s%s%s",
					 o->short_name, o->long_name,
					 o->has_arg ? " " : "",
					 o->has_arg ? o->arg_name : "");
			else
				snprintf(left, sizeof(left), "    --%s%s%s",
					 o->long_name, o->has_arg ? " " : "",
					 o->has_arg ? o->arg_name : "");
			fprintf(f, "  %-28s %s\n", left, o->help);
		}
	}
	fprintf(f, "  %-28s %s\n", "-h, --help", "show this help and exit");
	if (cmd->details)
		fprintf(f, "\n%s\n", cmd->details);
	fputc('\n', f);
	cli_print_global_help(f);
	fprintf(f, "\nexit status: 0 clean, 1 findings or differences, "
		   "2 usage error or failure\n");
}

int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("ibtopo: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	print_usage_line(stderr, cmd);
	return EXIT_TROUBLE;
}

/* The global options: main() reads them before the subcommand, cli_getopt
 * after it; the help texts are in cli_print_global_help. */
static const struct option global_longopts[] = {
	{ "db", required_argument, NULL, CLI_GLOBAL + 0 },
	{ "node-name-map", required_argument, NULL, CLI_GLOBAL + 1 },
	{ "ca", required_argument, NULL, 'C' },
	{ "port", required_argument, NULL, 'P' },
	{ "verbose", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 },
};
#define N_GLOBAL (sizeof(global_longopts) / sizeof(global_longopts[0]) - 1)

const struct option *const cli_global_longopts = global_longopts;

static struct cli_global *cli_g;

void cli_set_global(struct cli_global *g)
{
	cli_g = g;
}

bool cli_global_option(struct cli_global *g, int c, const char *arg)
{
	char *end;
	long port;

	switch (c) {
	case CLI_GLOBAL + 0:
		g->db = arg;
		break;
	case CLI_GLOBAL + 1:
		g->node_name_map = cli_path_arg(arg);
		break;
	case 'C':
		g->ca = arg;
		break;
	case 'P':
		port = strtol(arg, &end, 10);
		if (*end || end == arg || port < 0 || port > 255) {
			cli_failf("bad port number '%s'", arg);
			return false;
		}
		g->port = (int)port;
		break;
	case 'v':
		g->verbose++;
		break;
	default:
		return false;
	}
	return true;
}

#ifndef IBTOPO_NODE_NAME_MAP_DEFAULT
#define IBTOPO_NODE_NAME_MAP_DEFAULT "/etc/rdma/ib-node-name-map"
#endif

const char *cli_node_name_map(const struct cli_global *g)
{
	static const char default_map[] = IBTOPO_NODE_NAME_MAP_DEFAULT;
	const char *env = getenv("IBTOPO_NODE_NAME_MAP");

	/* the option wins; an empty one turns the map off */
	if (g->node_name_map)
		return *g->node_name_map ? g->node_name_map : NULL;
	/* set but empty: no map, not even the default file */
	if (env)
		return *env ? env : NULL;
	/* rdma-core's default, read when it is there (ibnetdiscover does) */
	if (*default_map && access(default_map, F_OK) == 0)
		return default_map;
	return NULL;
}

void cli_print_global_help(FILE *f)
{
	fprintf(f,
		"global options (before or after COMMAND):\n"
		"  --db FILE             snapshot database (default: $IBTOPO_DB, else\n"
		"                        $XDG_DATA_HOME/ibtopo/fabric.db, else\n"
		"                        ~/.local/share/ibtopo/fabric.db)\n"
		"  --node-name-map FILE  rename nodes by GUID (infiniband-diags format;\n"
		"                        default: $IBTOPO_NODE_NAME_MAP, else\n"
		"                        " IBTOPO_NODE_NAME_MAP_DEFAULT "\n"
		"                        if it exists; '' for none)\n"
		"  -C, --ca CA           local CA to discover through (default: first)\n"
		"  -P, --port PORT       port of that CA (default: first active)\n"
		"  -v, --verbose         each step, what it did and its time, on stderr\n");
}

void cli_step(const struct cli_global *g, const char *step, double t0,
	      const char *fmt, ...)
{
	va_list ap;

	if (!g || !g->verbose)
		return;
	fprintf(stderr, "ibtopo: %s: ", step);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " in %.3f s\n", cli_now() - t0);
}

/* Does the command's own table take this global option's name or letter? */
static bool cmd_has_opt(const struct cli_cmd *cmd, const struct option *g)
{
	for (const struct cli_opt *o = cmd->opts; o && o->long_name; o++)
		if (strcmp(o->long_name, g->name) == 0 ||
		    (g->val < CLI_GLOBAL && o->short_name == g->val))
			return true;
	return false;
}

int cli_getopt(struct cli_state *st, int argc, char **argv,
	       const struct cli_cmd *cmd)
{
	struct option longopts[64 + N_GLOBAL];
	bool global[256] = { false };
	char shortopts[160];
	size_t n = 0, s = 0;
	int idx = -1, c;

	shortopts[s++] = ':'; /* report a missing value as ':' */
	for (const struct cli_opt *o = cmd->opts; o && o->long_name; o++, n++) {
		longopts[n].name = o->long_name;
		longopts[n].has_arg =
			o->has_arg ? required_argument : no_argument;
		longopts[n].flag = NULL;
		longopts[n].val =
			o->short_name ? o->short_name : CLI_LONG + (int)n;
		if (o->short_name) {
			shortopts[s++] = (char)o->short_name;
			if (o->has_arg)
				shortopts[s++] = ':';
		}
	}
	/* the global options too, where the command has none of that name */
	for (size_t i = 0; i < N_GLOBAL; i++) {
		const struct option *go = &global_longopts[i];

		if (cmd_has_opt(cmd, go))
			continue;
		longopts[n++] = *go;
		if (go->val < CLI_GLOBAL) {
			global[go->val] = true;
			shortopts[s++] = (char)go->val;
			if (go->has_arg)
				shortopts[s++] = ':';
		}
	}
	longopts[n].name = "help";
	longopts[n].has_arg = no_argument;
	longopts[n].flag = NULL;
	longopts[n].val = 'h';
	n++;
	memset(&longopts[n], 0, sizeof(longopts[n]));
	shortopts[s++] = 'h';
	shortopts[s] = '\0';

	if (!st->optind) {
		/* 0, not 1: glibc then re-reads the option string, dropping
		 * main()'s '+' so options may follow operands. argv[0] is the
		 * subcommand, skipped like a program name. */
		optind = 0;
		st->optind = 1;
	}
	opterr = 0;
	for (;;) {
		c = getopt_long(argc, argv, shortopts, longopts, &idx);
		st->optind = optind;
		st->optarg = optarg;
		if (c >= CLI_GLOBAL || (c > 0 && c < 256 && global[c])) {
			struct cli_global dummy = { 0 };

			if (!cli_global_option(cli_g ? cli_g : &dummy, c,
					       optarg))
				exit(EXIT_TROUBLE);
			continue;
		}
		break;
	}
	if (c == 'h') {
		print_help(stdout, cmd);
		exit(EXIT_CLEAN);
	}
	if (c == '?') {
		if (optopt)
			exit(cli_usage_error(cmd, "unknown option '-%c'",
					     optopt));
		exit(cli_usage_error(cmd, "unknown option '%s'",
				     argv[optind - 1]));
	}
	if (c == ':') {
		exit(cli_usage_error(cmd, "option '%s' needs a value",
				     argv[optind - 1]));
	}
	return c;
}

int cli_fail(const struct ibtopo_error *err)
{
	fprintf(stderr, "ibtopo: %s\n",
		err && err->message[0] ?
			err->message :
			ibtopo_strerror(err ? err->code : IBTOPO_ERROR));
	return EXIT_TROUBLE;
}

int cli_failf(const char *fmt, ...)
{
	va_list ap;

	fputs("ibtopo: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_TROUBLE;
}

bool cli_parse_fail_on(const char *s, int *out)
{
	int sev;

	if (strcmp(s, "never") == 0) {
		*out = IBTOPO_SEV_ERROR + 1;
		return true;
	}
	sev = ibtopo_severity_parse(s);
	if (sev != IBTOPO_SEV_ERROR && sev != IBTOPO_SEV_WARNING)
		return false;
	*out = sev;
	return true;
}

bool cli_parse_format(const struct cli_cmd *cmd, const char *arg,
		      enum ibtopo_format *out)
{
	int f = ibtopo_format_parse(arg);

	if (f < 0) {
		cli_usage_error(cmd, "unknown format '%s' (text, json or csv)",
				arg);
		return false;
	}
	*out = (enum ibtopo_format)f;
	return true;
}

struct ibtopo_sink cli_stdout_sink(enum ibtopo_format format)
{
	struct ibtopo_sink o = {
		.version = IBTOPO_SINK_VERSION,
		.format = format,
		.write = ibtopo_write_file,
		.write_arg = stdout,
	};

	return o;
}

int cli_open_store(struct ibtopo_store **out, const struct cli_global *g,
		   unsigned flags, struct ibtopo_error *err)
{
	char path[4096];
	int rc;

	rc = ibtopo_store_default_path(path, sizeof(path), g->db, err);
	if (rc)
		return rc;
	return ibtopo_store_open(out, path, flags, err);
}

void cli_warn(void *arg, const char *message)
{
	(void)arg;
	fprintf(stderr, "ibtopo: warning: %s\n", message);
}

static void set_error(struct ibtopo_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_error(struct ibtopo_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
}

static bool stdin_taken;

/* True the first time only: standard input can be read once. */
static bool claim_stdin(void)
{
	return !__atomic_exchange_n(&stdin_taken, true, __ATOMIC_SEQ_CST);
}

#define STDIN_TWICE "standard input is read once: only one FILE can be '-'"

int cli_read_stdin(char **buf, size_t *len, struct ibtopo_error *err)
{
	size_t n = 0, alloc = 65536;
	char *b, *nb;
	int rc = 0;

	*buf = NULL;
	*len = 0;
	if (!claim_stdin()) {
		set_error(err, IBTOPO_EINVAL, STDIN_TWICE);
		return IBTOPO_EINVAL;
	}
	b = malloc(alloc);
	if (!b)
		goto out_nomem;
	for (;;) {
		size_t got = fread(b + n, 1, alloc - n - 1, stdin);

		n += got;
		if (got == 0)
			break;
		if (alloc - n - 1 == 0) {
			nb = realloc(b, alloc * 2);
			if (!nb)
				goto out_free_buf;
			b = nb;
			alloc *= 2;
		}
	}
	if (ferror(stdin)) {
		set_error(err, IBTOPO_EIO, "cannot read standard input: %s",
			  strerror(errno));
		rc = IBTOPO_EIO;
		free(b);
		return rc;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;

out_free_buf:
	free(b);
out_nomem:
	set_error(err, IBTOPO_ENOMEM, "cannot read standard input: %s",
		  strerror(ENOMEM));
	return IBTOPO_ENOMEM;
}

const char *cli_path_arg(const char *arg)
{
	static char path[32];
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	size_t len;
	char *buf;
	FILE *f;

	if (strcmp(arg, "-") != 0)
		return arg;
	/* into an unlinked file the library may open by name, more than
	 * once (a name map, for each fabric of a diff) */
	if (cli_read_stdin(&buf, &len, &err))
		exit(cli_fail(&err));
	f = tmpfile();
	if (!f || fwrite(buf, 1, len, f) != len || fflush(f) != 0)
		exit(cli_failf("cannot keep standard input: %s",
			       strerror(errno)));
	free(buf);
	/* f stays open to the end of the run: /dev/fd/N names it */
	snprintf(path, sizeof(path), "/dev/fd/%d", fileno(f));
	return path;
}

int cli_load_cables(struct ibtopo_fabric *fabric, const char *path,
		    const struct ibtopo_cables_opts *opts,
		    struct ibtopo_error *err)
{
	size_t len;
	char *buf;
	int rc;

	if (strcmp(path, "-") != 0)
		return ibtopo_cables_load(fabric, path, opts, err);
	rc = cli_read_stdin(&buf, &len, err);
	if (rc)
		return rc;
	rc = ibtopo_cables_load_buffer(fabric, buf, len, CLI_STDIN_NAME, opts,
				       err);
	free(buf);
	return rc;
}

/* A fabric from standard input: the text formats, detected or forced. */
static int read_stdin_fabric(struct ibtopo_fabric **out,
			     const struct ibtopo_read_opts *ropts,
			     struct ibtopo_error *err)
{
	size_t len;
	char *buf;
	int rc;

	rc = cli_read_stdin(&buf, &len, err);
	if (rc)
		return rc;
	rc = ibtopo_fabric_read_buffer(out, buf, len, CLI_STDIN_NAME, ropts,
				       err);
	free(buf);
	if (!rc)
		rc = ibtopo_fabric_set_source(*out, "stdin", err);
	if (rc) {
		ibtopo_fabric_free(*out);
		*out = NULL;
	}
	return rc;
}

int cli_read_fabric_file(struct ibtopo_fabric **out, const char *path,
			 const struct ibtopo_read_opts *ropts,
			 struct ibtopo_error *err)
{
	if (strcmp(path, "-") == 0)
		return read_stdin_fabric(out, ropts, err);
	return ibtopo_fabric_read_file(out, path, ropts, err);
}

static int load_snapshot(struct ibtopo_fabric **out, const struct cli_global *g,
			 const char *ref, struct ibtopo_error *err)
{
	struct ibtopo_store *store = NULL;
	int64_t id;
	int rc;

	rc = cli_open_store(&store, g, IBTOPO_STORE_READONLY, err);
	if (rc)
		goto out;
	rc = ibtopo_store_resolve(&id, store, ref, err);
	if (rc)
		goto out_free_store;
	rc = ibtopo_store_load(out, store, id, err);
out_free_store:
	ibtopo_store_free(store);
out:
	return rc;
}

static void step_loaded(const struct cli_global *g, double t0, const char *how,
			const char *what, const struct ibtopo_fabric *fabric)
{
	cli_step(g, "load", t0, "%s '%s': %zu nodes, %zu links", how, what,
		 ibtopo_fabric_node_count(fabric),
		 ibtopo_fabric_link_count(fabric));
}

static int load_source(struct ibtopo_fabric **out, const struct cli_global *g,
		       const struct cli_source *src, struct ibtopo_error *err)
{
	struct ibtopo_read_opts ropts = IBTOPO_READ_OPTS_INIT;
	const char *what = src->what;
	/* a command's own map, else the global --node-name-map or default */
	const char *name_map =
		src->node_name_map ? src->node_name_map : cli_node_name_map(g);
	struct stat st;
	double t0 = cli_now();
	int stat_errno = 0, rc;

	*out = NULL;
	if (what && (strcmp(what, "-") == 0 ||
		     (stat(what, &st) == 0 && !S_ISDIR(st.st_mode)))) {
		/* what a file cannot say (a -p report's CA ports) goes to stderr */
		ropts.format = src->format;
		ropts.node_name_map = name_map;
		ropts.warn = cli_warn;
		rc = cli_read_fabric_file(out, what, &ropts, err);
		if (!rc)
			step_loaded(g, t0, "read", what, *out);
		return rc;
	}
	if (what && stat(what, &st) != 0)
		stat_errno = errno;
	rc = load_snapshot(out, g, what ? what : "latest", err);
	if (rc == IBTOPO_ENOTFOUND && what && stat_errno &&
	    strpbrk(what, "/.")) {
		/* a path, or a file name: the file is what is missing */
		set_error(err, rc, "cannot open '%s': %s", what,
			  strerror(stat_errno));
	} else if (rc == IBTOPO_ENOTFOUND && what && !stat_errno && err) {
		char msg[2 * IBTOPO_ERROR_SIZE + 128];
		size_t n;

		n = (size_t)snprintf(msg, sizeof(msg),
				     "'%s' is a directory, not a fabric "
				     "file, and no snapshot: %s",
				     what, err->message);
		/* cut to the error buffer, as the library cuts its own */
		n = n < sizeof(err->message) ? n : sizeof(err->message) - 1;
		memcpy(err->message, msg, n);
		err->message[n] = '\0';
	}
	if (!rc && name_map)
		rc = ibtopo_name_map_apply_file(name_map, *out, err);
	if (rc) {
		ibtopo_fabric_free(*out);
		*out = NULL;
		return rc;
	}
	step_loaded(g, t0, "snapshot", what ? what : "latest", *out);
	return rc;
}

/* --routes DUMP: the dump's tables replace the fabric's for this run. */
static int attach_routes(struct ibtopo_fabric *fabric,
			 const struct cli_global *g, const char *path,
			 struct ibtopo_error *err)
{
	struct ibtopo_routes_load_opts o = IBTOPO_ROUTES_LOAD_OPTS_INIT;
	double t0 = cli_now();
	size_t unknown = 0;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	o.warn = cli_warn;
	if (strcmp(path, "-") == 0) {
		rc = cli_read_stdin(&buf, &len, err);
		if (!rc)
			rc = ibtopo_routes_load_buffer(fabric, buf, len,
						       CLI_STDIN_NAME, &o,
						       &unknown, err);
		free(buf);
	} else {
		rc = ibtopo_routes_load(fabric, path, &o, &unknown, err);
	}
	if (rc)
		return rc;
	if (unknown)
		fprintf(stderr,
			"ibtopo: warning: %s: %zu switch table%s for switches "
			"the fabric does not have\n",
			strcmp(path, "-") == 0 ? CLI_STDIN_NAME : path, unknown,
			unknown == 1 ? "" : "s");
	cli_step(g, "load", t0, "routes '%s'", path);
	return 0;
}

int cli_load_fabric(struct ibtopo_fabric **out, const struct cli_global *g,
		    const struct cli_source *src, struct ibtopo_error *err)
{
	int rc = load_source(out, g, src, err);

	if (rc || !src->routes)
		return rc;
	rc = attach_routes(*out, g, src->routes, err);
	if (rc) {
		ibtopo_fabric_free(*out);
		*out = NULL;
	}
	return rc;
}

void cli_print_summary(FILE *f, const struct ibtopo_fabric *fabric, int64_t id,
		       double seconds)
{
	/* speed x width mix, e.g. "4xHDR 120, 4xEDR 2" */
	struct {
		unsigned speed, width;
		size_t n;
	} mix[64];
	size_t nmix = 0, nl = ibtopo_fabric_link_count(fabric);
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(fabric);

	for (size_t i = 0; i < nl; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(fabric, i);
		size_t k;

		for (k = 0; k < nmix; k++)
			if (mix[k].speed == l->speed &&
			    mix[k].width == l->width)
				break;
		if (k == nmix) {
			if (nmix == 64)
				continue;
			mix[nmix].speed = l->speed;
			mix[nmix].width = l->width;
			mix[nmix++].n = 0;
		}
		mix[k].n++;
	}
	if (id > 0)
		fprintf(f, "snapshot %lld", (long long)id);
	else
		fprintf(f, "fabric");
	if (m->label)
		fprintf(f, " (%s)", m->label);
	fprintf(f, ": %zu switches, %zu CAs, %zu routers, %zu links",
		ibtopo_fabric_count_type(fabric, IBTOPO_NODE_SWITCH),
		ibtopo_fabric_count_type(fabric, IBTOPO_NODE_CA),
		ibtopo_fabric_count_type(fabric, IBTOPO_NODE_ROUTER), nl);
	if (m->partial)
		fprintf(f, " (PARTIAL)");
	fprintf(f, "\n  links:");
	/* largest groups first */
	for (size_t i = 0; i < nmix; i++) {
		size_t best = i;

		for (size_t k = i + 1; k < nmix; k++)
			if (mix[k].n > mix[best].n)
				best = k;
		if (best != i) {
			__typeof__(mix[0]) t = mix[i];

			mix[i] = mix[best];
			mix[best] = t;
		}
		fprintf(f, "%s %zu x %s%s", i ? "," : "", mix[i].n,
			mix[i].width ? ibtopo_width_name(mix[i].width) : "?x",
			mix[i].speed ? ibtopo_speed_name(mix[i].speed) : "???");
	}
	if (!nmix)
		fprintf(f, " none");
	fprintf(f, "\n  time: %.3f s\n", seconds);
}

double cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cli_routing_engine(const struct cli_cmd *cmd, char **out, bool routes,
		       const char *name, const char *log)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	size_t len;
	char *buf;
	int rc;

	*out = NULL;
	if (!name && !log)
		return 0;
	if (!routes)
		return cli_usage_error(cmd,
				       "--%s names the engine of the "
				       "--routes tables; no --routes given",
				       name ? "routing-engine" : "routes-log");
	if (name && log)
		return cli_usage_error(
			cmd, "--routing-engine and --routes-log "
			     "both name the routing engine; give one");
	if (name) {
		if (!ibtopo_routing_engine_name_ok(name))
			return cli_usage_error(
				cmd,
				"bad routing engine name "
				"'%s' (1 to %d letters, digits, '_', '-' or "
				"'.', as opensm -R names them)",
				name, IBTOPO_ROUTING_ENGINE_MAX);
		*out = strdup(name);
		if (!*out)
			return cli_failf("out of memory");
		return 0;
	}
	if (strcmp(log, "-") != 0) {
		rc = ibtopo_routes_log_engine(out, log, &err);
	} else {
		rc = cli_read_stdin(&buf, &len, &err);
		if (!rc) {
			rc = ibtopo_routes_log_engine_buffer(
				out, buf, len, CLI_STDIN_NAME, &err);
			free(buf);
		}
	}
	return rc ? cli_fail(&err) : 0;
}
