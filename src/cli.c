/* cli.c - option tables, help, errors, and loading fabrics for commands */
#include "cli.h"

#include <assert.h>
#include <ctype.h>
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

/* The i-th row of a command's table, a CLI_OPT_SAME one resolved; NULL
 * at its end. */
static const struct cli_opt *opt_row(const struct cli_cmd *cmd, size_t i)
{
	const struct cli_opt *o = cmd->opts ? &cmd->opts[i] : NULL;

	if (o && o->same_as)
		return o->same_as;
	return o && o->long_name ? o : NULL;
}

static void print_opt(FILE *f, const struct cli_opt *o)
{
	char left[64], list[512], help[1024];

	if (o->short_name)
		snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name,
			 o->long_name, o->has_arg ? " " : "",
			 o->has_arg ? o->arg_name : "");
	else
		snprintf(left, sizeof(left), "    --%s%s%s", o->long_name,
			 o->has_arg ? " " : "", o->has_arg ? o->arg_name : "");
	if (o->list)
		snprintf(help, sizeof(help), o->help,
			 o->list(list, sizeof(list)));
	fprintf(f, "  %-28s %s\n", left, o->list ? help : o->help);
}

static void print_help(FILE *f, const struct cli_cmd *cmd)
{
	print_usage_line(f, cmd);
	fprintf(f, "\n%s\n", cmd->summary);
	if (opt_row(cmd, 0)) {
		fprintf(f, "\noptions:\n");
		for (size_t i = 0; opt_row(cmd, i); i++)
			print_opt(f, opt_row(cmd, i));
	}
	fprintf(f, "  %-28s %s\n", "-h, --help", "show this help and exit");
	if (cmd->details)
		fprintf(f, "\n%s\n", cmd->details);
	fputc('\n', f);
	cli_print_global_help(f);
	fprintf(f, "\nexit status: 0 clean, 1 findings or differences, "
		   "2 usage error or failure\n");
}

/* "ibtopo: <message>" on stderr */
static void vfail(const char *fmt, va_list ap)
{
	fputs("ibtopo: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(fmt, ap);
	va_end(ap);
	print_usage_line(stderr, cmd);
	return EXIT_TROUBLE;
}

/* The global options: main() reads them before the subcommand, cli_getopt
 * after it; the help texts are in cli_print_global_help. */
static const struct option global_longopts[] = {
	{ "db", required_argument, NULL, CLI_GLOBAL + 0 },
	{ "node-name-map", required_argument, NULL, CLI_GLOBAL + 1 },
	{ "fabric", required_argument, NULL, CLI_GLOBAL + 2 },
	{ "across-fabrics", no_argument, NULL, CLI_GLOBAL + 3 },
	{ "threads", required_argument, NULL, CLI_GLOBAL + 4 },
	{ "ca", required_argument, NULL, 'C' },
	{ "port", required_argument, NULL, 'P' },
	{ "verbose", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 },
};
#define N_GLOBAL (sizeof(global_longopts) / sizeof(global_longopts[0]) - 1)

const struct option *const cli_global_longopts = global_longopts;

bool cli_set_threads(const char *arg, const char *what)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (*end || end == arg || *arg == '-' || *arg == '+' || errno ||
	    n > IBTOPO_THREADS_MAX) {
		cli_failf("bad %s '%s' (0 for every CPU, or 1 to %d)", what,
			  arg, IBTOPO_THREADS_MAX);
		return false;
	}
	ibtopo_set_threads((unsigned)n);
	return true;
}

/* --node-name-map -: the map's text from standard input, read now (as
 * cli_input_arg() does), parsed where it is applied; false after the
 * message. */
static bool stdin_name_map(struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	size_t len;

	free(g->stdin_name_map);
	g->stdin_name_map = NULL;
	if (cli_read_stdin(&g->stdin_name_map, &len, &err)) {
		cli_fail(&err);
		return false;
	}
	/* "": no file as well, not even the default one */
	g->node_name_map = "";
	return true;
}

int cli_stdin_name_map_load(const struct cli_global *g,
			    struct ibtopo_name_map **out,
			    struct ibtopo_error *err)
{
	*out = NULL;
	if (!g->stdin_name_map)
		return 0;
	return ibtopo_name_map_parse(out, g->stdin_name_map,
				     strlen(g->stdin_name_map), CLI_STDIN_NAME,
				     err);
}

int cli_stdin_name_map_apply(const struct cli_global *g,
			     struct ibtopo_fabric *fabric,
			     struct ibtopo_error *err)
{
	struct ibtopo_name_map *map;
	int rc = cli_stdin_name_map_load(g, &map, err);

	if (!rc && map)
		rc = ibtopo_name_map_apply(map, fabric, NULL, err);
	ibtopo_name_map_free(map);
	return rc;
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
		g->node_name_map = arg;
		if (strcmp(arg, "-") == 0)
			return stdin_name_map(g);
		break;
	case CLI_GLOBAL + 2:
		if (!ibtopo_store_fabric_name_is_valid(arg)) {
			cli_failf("bad fabric name '%s' (1 to 64 letters, "
				  "digits, '-', '_' or '.')",
				  arg);
			return false;
		}
		g->fabric = arg;
		break;
	case CLI_GLOBAL + 3:
		g->across_fabrics = true;
		break;
	case CLI_GLOBAL + 4:
		return cli_set_threads(arg, "--threads");
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
		"  --fabric NAME         the fabric of new snapshots and of REFs\n"
		"                        (default: $IBTOPO_FABRIC; see 'ibtopo fabrics')\n"
		"  --across-fabrics      compare snapshots of two fabrics all the same\n"
		"  --threads N           threads of route tracing and path diversity\n"
		"                        (default: $IBTOPO_THREADS, else the CPUs\n"
		"                        this process may use; 0 for that too)\n"
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

/* Rows cli_getopt parses itself get values of their own, never returned. */
#define CLI_PARSED 0x3000

/*
 * What getopt_long gives for row `o`, the table's row `n` (its same_as
 * resolved): the short letter, else the id written in the table's row.
 * A long-only row that names no id, and which cli_getopt would not parse
 * itself, or two rows of one id, are a bug of the table: abort.
 */
static int opt_val(const struct cli_cmd *cmd, size_t n, const struct cli_opt *o)
{
	int id = cmd->opts[n].same_as ? cmd->opts[n].id : o->id;

	if (o->short_name)
		return o->short_name;
	if (!id && o->parse)
		return CLI_PARSED + (int)n;
	if (id < CLI_LONG || id >= CLI_GLOBAL) {
		fprintf(stderr, "ibtopo: %s: option --%s has no id\n",
			cmd->name, o->long_name);
		abort();
	}
	for (size_t i = 0; i < n; i++)
		if (cmd->opts[i].id == id) {
			fprintf(stderr,
				"ibtopo: %s: options --%s and --%s "
				"share id %d\n",
				cmd->name, opt_row(cmd, i)->long_name,
				o->long_name, id);
			abort();
		}
	return id;
}

/* Does the command's own table take this global option's name or letter? */
static bool cmd_has_opt(const struct cli_cmd *cmd, const struct option *g)
{
	const struct cli_opt *o;

	for (size_t i = 0; (o = opt_row(cmd, i)) != NULL; i++)
		if (strcmp(o->long_name, g->name) == 0 ||
		    (g->val < CLI_GLOBAL && o->short_name == g->val))
			return true;
	return false;
}

int cli_getopt(struct cli_state *st, int argc, char **argv,
	       const struct cli_cmd *cmd)
{
	struct option longopts[64 + N_GLOBAL];
	const struct cli_opt *rows[64];
	bool global[256] = { false };
	char shortopts[160];
	size_t n = 0, s = 0, nrows;
	int idx = -1, c;
	const struct cli_opt *o;

	shortopts[s++] = ':'; /* report a missing value as ':' */
	for (; (o = opt_row(cmd, n)) != NULL; n++) {
		rows[n] = o;
		longopts[n].name = o->long_name;
		longopts[n].has_arg =
			o->has_arg ? required_argument : no_argument;
		longopts[n].flag = NULL;
		longopts[n].val = opt_val(cmd, n, o);
		if (o->short_name) {
			shortopts[s++] = (char)o->short_name;
			if (o->has_arg)
				shortopts[s++] = ':';
		}
	}
	nrows = n;
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
		const struct cli_opt *row = NULL;

		c = getopt_long(argc, argv, shortopts, longopts, &idx);
		st->optind = optind;
		st->optarg = optarg;
		for (size_t i = 0; c > 0 && !row && i < nrows; i++)
			if (longopts[i].val == c)
				row = rows[i];
		st->row = row;
		if (row && row->parse) {
			/* a table with a shared row gives it a place */
			assert(st->report || st->analyze);
			if (!row->parse(cmd, st, optarg))
				exit(EXIT_TROUBLE);
			continue;
		}
		if (c >= CLI_GLOBAL || (c > 0 && c < 256 && global[c])) {
			struct cli_global dummy = { 0 };

			if (!cli_global_option(st->global ? st->global : &dummy,
					       c, optarg))
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

	va_start(ap, fmt);
	vfail(fmt, ap);
	va_end(ap);
	return EXIT_TROUBLE;
}

static bool parse_fail_on(const struct cli_cmd *cmd, struct cli_state *st,
			  const char *arg)
{
	int sev = ibtopo_severity_parse(arg);

	if (strcmp(arg, "never") == 0)
		sev = IBTOPO_SEV_ERROR + 1;
	else if (sev != IBTOPO_SEV_ERROR && sev != IBTOPO_SEV_WARNING)
		return cli_usage_error(cmd,
				       "unknown --fail-on '%s' "
				       "(error, warning or never)",
				       arg) == EXIT_CLEAN;
	st->report->fail_on = sev;
	return true;
}

static bool parse_format(const struct cli_cmd *cmd, struct cli_state *st,
			 const char *arg)
{
	int f = ibtopo_format_parse(arg);

	if (f < 0)
		return cli_usage_error(
			       cmd, "unknown format '%s' (text, json or csv)",
			       arg) == EXIT_CLEAN;
	st->report->format = (enum ibtopo_format)f;
	st->report->format_given = true;
	return true;
}

/* clang-format off */
const struct cli_opt cli_opt_format = {
	CLI_OPT_FIELDS("format", 0, 1, "FMT", "output format: text (default), json or csv"),
	.parse = parse_format,
};
const struct cli_opt cli_opt_fail_on = {
	CLI_OPT_FIELDS("fail-on", 0, 1, "LEVEL",
	    "exit 1 on findings at or above error (default), warning or never"),
	.parse = parse_fail_on,
};
const struct cli_opt cli_opt_routes_dump = {
	CLI_OPT_FIELDS("routes", 0, 1, "DUMP",
	    "forwarding tables from a file (opensm-lfts.dump, ibroute/dump_fts output, .fdbs) for this run"),
};
const struct cli_opt cli_opt_output = {
	CLI_OPT_FIELDS("output", 'o', 1, "FILE",
	    "write into FILE ('-' = standard output, the default)"),
};
const struct cli_opt cli_opt_label = {
	CLI_OPT_FIELDS("label", 0, 1, "TEXT", "label the new snapshot (a REF then)"),
};
const struct cli_opt cli_opt_force = {
	CLI_OPT_FIELDS("force", 0, 0, NULL,
	    "move the --label from the snapshot that has it to the new one"),
};
const struct cli_opt cli_opt_routes_log = {
	CLI_OPT_FIELDS("routes-log", 0, 1, "LOG",
	    "take the routing engine from an OpenSM log (its last 'tables configured' line)"),
};
const struct cli_opt cli_opt_cables_store = {
	CLI_OPT_FIELDS("cables", 0, 1, "FILE",
	    "store a cable inventory CSV or ibdiagnet2 .db_csv with the snapshot"),
};
/* clang-format on */

/*
 * The names of a format table, by enumerator from `first` until a name
 * is "?", as "a, b or c" (after `head`) into buf.
 */
static const char *name_list(char *buf, size_t len, const char *head,
			     const char *(*name)(int format), int first)
{
	size_t used, n = 0;

	while (strcmp(name(first + (int)n), "?") != 0)
		n++;
	used = (size_t)snprintf(buf, len, "%s", head);
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 !i && !*head ? "" :
					 i + 1 == n   ? " or " :
							", ",
					 name(first + (int)i));
	return buf;
}

static const char *file_format_name(int format)
{
	return ibtopo_file_format_name((enum ibtopo_file_format)format);
}

static const char *export_format_name(int format)
{
	return ibtopo_export_format_name((enum ibtopo_export_format)format);
}

const char *cli_file_formats(char *buf, size_t len)
{
	/* auto first: it is no reader, but the default */
	return name_list(buf, len, "auto (default)", file_format_name,
			 IBTOPO_FILE_AUTO + 1);
}

/* The same for messages: "auto, cache, ... or iblinkinfo". */
static const char *file_format_names(char *buf, size_t len)
{
	return name_list(buf, len, "auto", file_format_name,
			 IBTOPO_FILE_AUTO + 1);
}

const char *cli_export_formats(char *buf, size_t len)
{
	return name_list(buf, len, "", export_format_name, 0);
}

static int print_formats(const char *(*name)(int format))
{
	for (int i = 0; strcmp(name(i), "?") != 0; i++)
		puts(name(i));
	return cli_report_exit(NULL, 0);
}

int cli_print_file_formats(void)
{
	return print_formats(file_format_name);
}

int cli_print_export_formats(void)
{
	return print_formats(export_format_name);
}

/* At most max digits at *p into *v; how many were read. */
static int read_digits(const char **p, int max, unsigned *v)
{
	int n = 0;

	for (*v = 0; n <= max && isdigit((unsigned char)**p); n++, (*p)++)
		*v = *v * 10 + (unsigned)(**p - '0');
	return n;
}

bool cli_parse_slurm_version(const char *arg, unsigned *out)
{
	const char *p = arg;
	unsigned x, y, z;
	int nx = read_digits(&p, 2, &x);

	if (nx < 1 || nx > 2 || *p++ != '.' || read_digits(&p, 2, &y) != 2)
		return false;
	/* a patch level (26.05.5) says nothing more */
	if (*p == '.' && (p++, read_digits(&p, 6, &z) < 1))
		return false;
	if (*p || !x || !y || y > 12)
		return false;
	*out = x * 100 + y;
	return true;
}

bool cli_parse_file_format(const struct cli_cmd *cmd, const char *what,
			   const char *arg, enum ibtopo_file_format *out)
{
	char names[256];
	int v = ibtopo_file_format_parse(arg);

	if (v < 0)
		return cli_usage_error(cmd, "unknown %s '%s' (%s)", what, arg,
				       file_format_names(names,
							 sizeof(names))) ==
		       EXIT_CLEAN;
	*out = (enum ibtopo_file_format)v;
	return true;
}

bool cli_keyword_find(const struct cli_keyword *words, const char *arg,
		      int *out)
{
	for (const struct cli_keyword *w = words; w->name; w++)
		if (strcmp(w->name, arg) == 0) {
			*out = w->value;
			return true;
		}
	return false;
}

bool cli_parse_keyword(const struct cli_cmd *cmd, const char *option,
		       const char *arg, const struct cli_keyword *words,
		       int *out)
{
	char list[256];
	size_t used = 0;

	if (cli_keyword_find(words, arg, out))
		return true;
	list[0] = '\0';
	for (const struct cli_keyword *w = words;
	     w->name && used < sizeof(list); w++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%s",
					 w == words ? "" :
					 !w[1].name ? " or " :
						      ", ",
					 w->name);
	cli_usage_error(cmd, "unknown --%s '%s' (%s)", option, arg, list);
	return false;
}

int cli_operands(const struct cli_cmd *cmd, const struct cli_state *st,
		 int argc, char **argv, int max)
{
	if (argc - st->optind > max) {
		cli_usage_error(cmd, "unexpected argument '%s'",
				argv[st->optind + max]);
		return -1;
	}
	return argc - st->optind;
}

int cli_source_operand(const struct cli_cmd *cmd, const struct cli_state *st,
		       int argc, char **argv, const char **what)
{
	int n = cli_operands(cmd, st, argc, argv, 1);

	if (n < 0)
		return EXIT_TROUBLE;
	if (n == 1)
		*what = argv[st->optind];
	return 0;
}

int cli_report_exit(const struct ibtopo_findings *findings, int fail_on)
{
	if (fflush(stdout) != 0)
		return cli_failf("cannot write output");
	if (findings && findings->count &&
	    (int)ibtopo_findings_max_severity(findings) >= fail_on)
		return EXIT_FINDINGS;
	return EXIT_CLEAN;
}

int cli_load(struct ibtopo_fabric **out, const struct cli_global *g,
	     const struct cli_source *src)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	if (cli_load_fabric(out, g, src, &err))
		return cli_fail(&err);
	return 0;
}

int cli_load_operand(struct ibtopo_fabric **out, const struct cli_cmd *cmd,
		     const struct cli_state *st, int argc, char **argv,
		     const struct cli_global *g, struct cli_source *src)
{
	if (cli_source_operand(cmd, st, argc, argv, &src->what))
		return EXIT_TROUBLE;
	return cli_load(out, g, src);
}

int cli_merge_cables(struct ibtopo_fabric *fabric, const struct cli_global *g,
		     const char *path, struct ibtopo_findings *unmatched)
{
	struct ibtopo_cables_opts cab = IBTOPO_CABLES_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	double t0 = cli_now();

	cab.warn = cli_warn;
	cab.unmatched = unmatched;
	if (!path)
		return 0;
	if (cli_load_cables(fabric, path, &cab, &err))
		return cli_fail(&err);
	cli_step(g, "load", t0, "cables '%s'", path);
	return 0;
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

const char *cli_fabric(const struct cli_global *g)
{
	const char *env = getenv("IBTOPO_FABRIC");

	if (g && g->fabric)
		return g->fabric;
	return env && *env ? env : NULL;
}

#define NO_DB_HINT                                                         \
	" (nothing stored yet: `ibtopo discover` or `ibtopo import FILE` " \
	"stores a snapshot; or name a fabric file)"

int cli_open_store(struct ibtopo_store **out, const struct cli_global *g,
		   unsigned flags, struct ibtopo_error *err)
{
	const char *env = getenv("IBTOPO_DB");
	char path[4096];
	int rc;

	rc = ibtopo_store_default_path(path, sizeof(path), g->db, err);
	if (rc)
		return rc;
	/* the folders of the default database are made; a path typed
	 * (--db, $IBTOPO_DB) names one that exists, else it is a typo */
	if ((g->db && *g->db) || (env && *env))
		flags |= IBTOPO_STORE_NO_MKDIR;
	rc = ibtopo_store_open(out, path, flags, err);
	/* nothing stored yet: say how something gets there */
	if (rc == IBTOPO_ENOTFOUND && err &&
	    strlen(err->message) + sizeof(NO_DB_HINT) <= sizeof(err->message))
		strcat(err->message, NO_DB_HINT);
	return rc;
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

const char *cli_input_arg(const char *arg, const char **text)
{
	static char *kept; /* standard input, read once, kept to the end */
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	size_t len;

	*text = NULL;
	if (strcmp(arg, "-") != 0)
		return arg;
	if (cli_read_stdin(&kept, &len, &err))
		exit(cli_fail(&err));
	*text = kept;
	/* what names it in messages, as for every other input */
	return CLI_STDIN_NAME;
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
	rc = ibtopo_store_resolve_in(&id, store, cli_fabric(g), ref, err);
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
	/* errno only from a stat that failed: a library's start-up (gnutls
	 * under libmicrohttpd) leaves ENOENT behind */
	if (what && strcmp(what, "-") != 0 && stat(what, &st) != 0)
		stat_errno = errno;
	if (what &&
	    (strcmp(what, "-") == 0 || (!stat_errno && !S_ISDIR(st.st_mode)))) {
		/* what a file cannot say (a -p report's CA ports) goes to stderr */
		ropts.format = src->format;
		ropts.node_name_map = name_map;
		ropts.warn = cli_warn;
		rc = cli_read_fabric_file(out, what, &ropts, err);
		if (!rc && !src->node_name_map)
			rc = cli_stdin_name_map_apply(g, *out, err);
		if (!rc)
			step_loaded(g, t0, "read", what, *out);
		return rc;
	}
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

const char *cli_stored_fabric_name(char *buf, size_t len,
				   const struct ibtopo_fabric *f,
				   const struct cli_global *g)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(f);
	struct ibtopo_fabric_match match;
	struct ibtopo_store *store = NULL;
	const char *name = NULL;

	if (m->snapshot_id > 0 || m->fabric || cli_fabric(g) ||
	    cli_open_store(&store, g, IBTOPO_STORE_READONLY, NULL))
		return NULL;
	if (!ibtopo_store_fabric_match(&match, store, f, "", NULL) &&
	    match.other[0]) {
		snprintf(buf, len, "%s", match.other);
		name = buf;
	}
	ibtopo_store_free(store);
	return name;
}

int cli_load_fabric(struct ibtopo_fabric **out, const struct cli_global *g,
		    const struct cli_source *src, struct ibtopo_error *err)
{
	int rc = load_source(out, g, src, err);

	if (!rc)
		cli_note_partial(*out);
	if (rc || !src->routes)
		return rc;
	rc = attach_routes(*out, g, src->routes, err);
	if (!rc && src->routes2)
		rc = attach_routes(*out, g, src->routes2, err);
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
	if (id > 0 && m->fabric)
		fprintf(f, "\n  fabric: %s", m->fabric);
	fprintf(f, "\n  time: %.3f s\n", seconds);
}

bool cli_fabric_has_lids(const struct ibtopo_fabric *fabric)
{
	for (size_t i = 0; i < ibtopo_fabric_node_count(fabric); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(fabric, i);

		for (unsigned k = 0; k <= n->nports; k++)
			if (n->ports[k] && n->ports[k]->lid)
				return true;
	}
	return false;
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

const char *cli_snapshot_name(char *buf, size_t len,
			      const struct ibtopo_fabric *f)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(f);
	char when[32] = "?";
	struct tm tm;

	if (gmtime_r(&m->taken_at, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	if (m->label)
		snprintf(buf, len, "snapshot %lld ('%s', %s)",
			 (long long)m->snapshot_id, m->label, when);
	else
		snprintf(buf, len, "snapshot %lld (%s)",
			 (long long)m->snapshot_id, when);
	return buf;
}

void cli_note_partial(const struct ibtopo_fabric *f)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(f);
	char who[320];

	if (!m->partial)
		return;
	if (m->snapshot_id > 0)
		cli_snapshot_name(who, sizeof(who), f);
	else
		snprintf(who, sizeof(who), "'%s'",
			 m->source ? m->source : "the fabric");
	fprintf(stderr,
		"ibtopo: warning: %s is a partial discovery (%s): what it did "
		"not reach is missing from what follows\n",
		who,
		m->partial_reason ? m->partial_reason : "reason not known");
}

int cli_source_routes(struct cli_source *src, const struct cli_cmd *self,
		      const char *arg)
{
	if (!src->routes)
		src->routes = arg;
	else if (!src->routes2)
		src->routes2 = arg;
	else
		return cli_usage_error(self, "--routes given more than twice "
					     "(unicast and multicast tables)");
	return 0;
}
