/* cli.h - shared plumbing for the ibtopo subcommands */
#ifndef IBTOPO_CLI_H
#define IBTOPO_CLI_H

#include <ibtopo.h>

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* The opening of every JSON document, for the --help texts that show one:
 * {"schema_version":N (IBTOPO_JSON_SCHEMA_VERSION; doc/json.md). */
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)
#define CLI_JSON "{\"schema_version\":" CLI_STR(IBTOPO_JSON_SCHEMA_VERSION)

enum {
	EXIT_CLEAN = 0,	   /* nothing found */
	EXIT_FINDINGS = 1, /* findings at or above --fail-on, or differences */
	EXIT_TROUBLE = 2,  /* usage error or failure */
	/* stored, but incomplete: counters of some ports not read */
	EXIT_INCOMPLETE = 3,
};

/* Global options, given before or after the subcommand. */
struct cli_global {
	const char *db;		   /* --db, or NULL for the default */
	const char *ca;		   /* -C */
	int port;		   /* -P */
	int verbose;		   /* -v */
	const char *node_name_map; /* --node-name-map, or NULL */
	const char *fabric;	   /* --fabric, or NULL */
	bool across_fabrics;	   /* --across-fabrics */
	/* --node-name-map -: the map's text, read from standard input
	 * (then node_name_map is "", so that no file is read as well) */
	char *stdin_name_map;
};

/**
 * Rename the nodes of a fabric read from a file by the map
 * --node-name-map - read from standard input, when it came from there:
 * 0, or the library's error (the map's, parsed here).
 */
int cli_stdin_name_map_apply(const struct cli_global *g,
			     struct ibtopo_fabric *fabric,
			     struct ibtopo_error *err);
/** That map, parsed into *out (NULL when it did not come from there). */
int cli_stdin_name_map_load(const struct cli_global *g,
			    struct ibtopo_name_map **out,
			    struct ibtopo_error *err);

/**
 * The node-name map to apply: --node-name-map, else $IBTOPO_NODE_NAME_MAP
 * (empty: none), else the default file (rdma-core's
 * /etc/rdma/ib-node-name-map, or the configure --with-node-name-map
 * path) when it exists; NULL for none.
 */
const char *cli_node_name_map(const struct cli_global *g);

/* Option ids of the global options, as cli_global_getopt returns them. */
#define CLI_GLOBAL 0x2000

/**
 * Apply one global option (its short letter or CLI_GLOBAL id) to `g`.
 * Returns false (after `ibtopo: <why>` on stderr) for a bad value.
 */
bool cli_global_option(struct cli_global *g, int c, const char *arg);
/** The thread count from --threads or $IBTOPO_THREADS (`what`); false
 * (said on stderr) when `arg` is no count. */
bool cli_set_threads(const char *arg, const char *what);

/** The global options as a getopt_long table, terminated by zeros. */
extern const struct option *const cli_global_longopts;

/** Print the "global options:" block (main's help and each command's). */
void cli_print_global_help(FILE *f);

/**
 * With -v, print `ibtopo: STEP: <what>: T s` on stderr, T the seconds
 * since `t0` (from cli_now()); nothing without -v.
 */
void cli_step(const struct cli_global *g, const char *step, double t0,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

struct cli_cmd;
struct cli_state;

/*
 * One option: the table builds both getopt_long and --help. A row shared
 * by several commands is defined once below (cli_opt_format, ...) and
 * named in a command's table by CLI_OPT_SAME(row), or CLI_OPT_SAME_ID(id,
 * row) when the command's exec handles it. cli_getopt returns a row's
 * short letter, else its id: the binding is written in the row, so
 * reordering a table rebinds nothing.
 */
struct cli_opt {
	const char *long_name;
	int short_name; /* 0 for long-only */
	int id;		/* long-only: what cli_getopt returns (>= CLI_LONG) */
	int has_arg;	/* 0 none, 1 required */
	const char *arg_name; /* shown in --help */
	/* shown in --help; with `list`, a template whose "%s" it fills */
	const char *help;
	/* the row this one stands for: all other fields are that row's */
	const struct cli_opt *same_as;
	/* the values the option takes into buf ("a, b or c"), for --help */
	const char *(*list)(char *buf, size_t len);
	/* cli_getopt parses the option with this itself and does not return
	 * it; false (after the usage error) exits 2 */
	bool (*parse)(const struct cli_cmd *cmd, struct cli_state *st,
		      const char *arg);
};
#define CLI_OPT_SAME(row)         \
	{                         \
		.same_as = &(row) \
	}
/* A shared row the command's exec handles, returned as `i`. */
#define CLI_OPT_SAME_ID(i, row)              \
	{                                    \
		.same_as = &(row), .id = (i) \
	}
/* A row's own fields, and a row of them alone. */
#define CLI_OPT_FIELDS(l, s, a, n, h)                                         \
	.long_name = (l), .short_name = (s), .has_arg = (a), .arg_name = (n), \
	.help = (h)
/* --collect of metrics and serve: the series groups beyond the default */
#define CLI_COLLECT_HELP                                                \
	"add series groups to the default link,errors,traffic,health: " \
	"phy, more-errors, more-traffic, saturation, all; no-GROUP "    \
	"leaves one out; repeatable"

#define CLI_OPT(l, s, a, n, h)                \
	{                                     \
		CLI_OPT_FIELDS(l, s, a, n, h) \
	}
/* A long-only row, returned as `i` (an enumerator from CLI_LONG on). */
#define CLI_LONG_OPT(i, l, a, n, h)                      \
	{                                                \
		CLI_OPT_FIELDS(l, 0, a, n, h), .id = (i) \
	}

/* Where the shared report options store their values (cli_state.report). */
struct cli_report {
	enum ibtopo_format format; /* --format: text, json or csv */
	bool format_given;
	int fail_on; /* --fail-on: a severity, or IBTOPO_SEV_ERROR + 1 */
};
#define CLI_REPORT_INIT                                     \
	{                                                   \
		IBTOPO_FORMAT_TEXT, false, IBTOPO_SEV_ERROR \
	}

/* The shared rows, parsed by cli_getopt into cli_state.report. */
extern const struct cli_opt cli_opt_format;  /* text (default), json, csv */
extern const struct cli_opt cli_opt_fail_on; /* error, warning or never */
/* The shared rows a command's exec handles, by their place in its table. */
extern const struct cli_opt cli_opt_routes_dump;  /* --routes DUMP */
extern const struct cli_opt cli_opt_output;	  /* -o FILE, default stdout */
extern const struct cli_opt cli_opt_label;	  /* --label TEXT */
extern const struct cli_opt cli_opt_force;	  /* --force, with --label */
extern const struct cli_opt cli_opt_routes_log;	  /* --routes-log LOG */
extern const struct cli_opt cli_opt_cables_store; /* --cables FILE, stored */

/*
 * The options of the analysis every command that ranks levels shares
 * (cli_analysis.c), parsed by cli_getopt into cli_state.analyze.
 */
extern const struct cli_opt cli_opt_roots;	  /* --roots FILE */
extern const struct cli_opt cli_opt_root_pattern; /* --root-pattern REGEX */
extern const struct cli_opt cli_opt_servers;	  /* --servers single|dual */
/* The three of them, in a command's table: CLI_OPTS_ANALYSIS, */
#define CLI_OPTS_ANALYSIS                                                \
	CLI_OPT_SAME(cli_opt_roots), CLI_OPT_SAME(cli_opt_root_pattern), \
		CLI_OPT_SAME(cli_opt_servers)
/* Their synopsis, for a command's args line. */
#define CLI_ARGS_ANALYSIS \
	"[--roots FILE] [--root-pattern REGEX] [--servers single|dual]"

/**
 * The analysis of `fabric` with `opts` (NULL: the defaults) that a
 * command's outputs all read; with -v each section it computes says so
 * on stderr, once, with its time. On failure says why on stderr and
 * returns EXIT_TROUBLE; else 0.
 */
/** With -v: "ibtopo: analysis: LINE" on stderr (ibtopo_analysis_set_log()). */
void cli_analysis_log(void *ctx, const char *line);
int cli_analysis(struct ibtopo_analysis **out,
		 const struct ibtopo_fabric *fabric,
		 const struct ibtopo_analyze_opts *opts,
		 const struct cli_global *g);

/**
 * The fabric file formats, from the library's table of readers: "auto
 * (default), cache, ..., or iblinkinfo" into buf.
 */
const char *cli_file_formats(char *buf, size_t len);
/** The export formats, from the library's table of writers: "a, b or c". */
const char *cli_export_formats(char *buf, size_t len);
/** `--format list`: the file formats (auto first), one a line on stdout;
 * returns the exit status. */
int cli_print_file_formats(void);
/** `--format list`: the export formats, one a line on stdout. */
int cli_print_export_formats(void);

/**
 * A fabric file format by name into *out; false after the usage error
 * "unknown WHAT 'arg' (auto, cache, ...)" (what: "format", "input format").
 */
bool cli_parse_file_format(const struct cli_cmd *cmd, const char *what,
			   const char *arg, enum ibtopo_file_format *out);

/** A Slurm release "X.Y" or "X.Y.Z" (24.11, 26.05.5) as YYMM into *out
 * (2411); false when it is none. */
bool cli_parse_slurm_version(const char *arg, unsigned *out);

enum cli_cmd_flags {
	CLI_NEEDS_DB = 1u << 0, /* reads or writes the snapshot database */
};

/*
 * One subcommand, declared once in its src/cmd_<name>.c as
 * `const struct cli_cmd cmd_<name>_entry` and listed in main.c's table:
 * `ibtopo --help` and `ibtopo NAME --help` print the same summary.
 */
struct cli_cmd {
	const char *name;
	const char *summary;	    /* one line, lowercase, no final period */
	const char *args;	    /* synopsis after the name */
	const char *details;	    /* printed after the options; may be NULL */
	const struct cli_opt *opts; /* terminated by { NULL } */
	/* argv[0] is the subcommand name; returns an exit status */
	int (*exec)(const struct cli_cmd *self, int argc, char **argv,
		    struct cli_global *g);
	unsigned flags; /* enum cli_cmd_flags */
};

/* The first id of a command's long-only options (above every letter). */
#define CLI_LONG 0x1000

struct cli_state {
	int optind;
	const char *optarg;
	int done;
	/* where cli_opt_format and cli_opt_fail_on go; NULL when the
	 * command's table has neither */
	struct cli_report *report;
	/* where cli_opt_roots, cli_opt_root_pattern and cli_opt_servers
	 * go (cli_analysis.c); NULL when the table has none of them */
	struct ibtopo_analyze_opts *analyze;
	/* the row of the option cli_getopt returned last */
	const struct cli_opt *row;
	/* where global options given after the subcommand go: the exec's
	 * own `g` (NULL: they are checked, then dropped) */
	struct cli_global *global;
};

/**
 * getopt_long over a cli_opt table. Returns the short letter, or the
 * row's id for a long-only option, or -1 when options end (st->row is
 * the row returned).
 * --help prints the command's help on stdout and exits 0; a bad option
 * prints `ibtopo: <message>` and the usage line on stderr and exits 2.
 */
int cli_getopt(struct cli_state *st, int argc, char **argv,
	       const struct cli_cmd *cmd);

/** Print `ibtopo: <msg>` and the usage line to stderr; returns EXIT_TROUBLE. */
int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** Print `ibtopo: <err->message>` to stderr; returns EXIT_TROUBLE. */
int cli_fail(const struct ibtopo_error *err);
/** Print `ibtopo: <msg>` to stderr; returns EXIT_TROUBLE. */
int cli_failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A keyword an option takes and the value it stands for. */
struct cli_keyword {
	const char *name;
	int value;
};

/** The value of `arg` in `words` into *out; false when it is none. */
bool cli_keyword_find(const struct cli_keyword *words, const char *arg,
		      int *out);

/**
 * The value of `arg` in `words` (terminated by { NULL }) into *out;
 * false after the usage error "unknown --OPTION 'arg' (a, b or c)".
 */
bool cli_parse_keyword(const struct cli_cmd *cmd, const char *option,
		       const char *arg, const struct cli_keyword *words,
		       int *out);

/**
 * The operands after the options: their count, or -1 after the usage
 * error "unexpected argument" when there are more than `max`.
 */
int cli_operands(const struct cli_cmd *cmd, const struct cli_state *st,
		 int argc, char **argv, int max);
/** Render options writing to stdout. */
struct ibtopo_sink cli_stdout_sink(enum ibtopo_format format);

/**
 * The one optional operand REF|FILE into *what (left as it is when there
 * is none): 0, or EXIT_TROUBLE after the usage error for a second one.
 */
int cli_source_operand(const struct cli_cmd *cmd, const struct cli_state *st,
		       int argc, char **argv, const char **what);

/**
 * A report on standard output is done: flush it (EXIT_TROUBLE after the
 * message when that fails), else EXIT_FINDINGS when `findings` (may be
 * NULL: none) holds one at or above `fail_on`, else EXIT_CLEAN.
 */
int cli_report_exit(const struct ibtopo_findings *findings, int fail_on);

/**
 * Merge a --cables FILE into `fabric` (its -v step line): warnings on
 * stderr, the rows that match nothing into `unmatched`. 0, or
 * EXIT_TROUBLE after the message.
 */
int cli_merge_cables(struct ibtopo_fabric *fabric, const struct cli_global *g,
		     const char *path, struct ibtopo_findings *unmatched);

/**
 * The fabric named by --fabric, else $IBTOPO_FABRIC (when not empty);
 * NULL for none.
 */
const char *cli_fabric(const struct cli_global *g);

/** Open the store named by the global options. */
int cli_open_store(struct ibtopo_store **out, const struct cli_global *g,
		   unsigned flags, struct ibtopo_error *err);

/* Where a command's fabric comes from: a fabric FILE or a snapshot REF. */
struct cli_source {
	const char *what;	   /* FILE or REF; NULL = the latest snapshot */
	const char *node_name_map; /* rename nodes by GUID; may be NULL */
	enum ibtopo_file_format format; /* of a FILE; IBTOPO_FILE_AUTO detects */
	const char *routes;  /* --routes DUMP: forwarding tables to attach */
	const char *routes2; /* a second --routes (opensm.mcfdbs beside
			      * opensm-lfts.dump), or NULL */
};
/** --routes DUMP given once or twice: into src->routes, then routes2. */
int cli_source_routes(struct cli_source *src, const struct cli_cmd *self,
		      const char *arg);

/**
 * The one loader of "REF or FILE, plus a node name map" for every command.
 * An existing FILE that is not a directory is read (never stored), its
 * warnings on stderr, and "-" is standard input; anything else is a
 * snapshot REF in the database. The name map renames the nodes of
 * either. When `what` is neither and looks like a file name (it has a
 * '/' or a '.'), the message is the file's ("cannot open 'x.topo': No
 * such file or directory"); a directory's says what both attempts found.
 * `routes` (a dump file, or "-") replaces the fabric's forwarding tables
 * for this run; switches it names that the fabric lacks are a warning.
 */
int cli_load_fabric(struct ibtopo_fabric **out, const struct cli_global *g,
		    const struct cli_source *src, struct ibtopo_error *err);

/**
 * The name a file's fabric goes by in metrics and the scheduler files:
 * the stored fabric that has its switches (at least half of those of
 * that fabric's latest snapshot), into buf, so a dump of the fabric
 * renamed `janus` is `janus` there as its snapshots are. NULL for a
 * snapshot, a fabric named already, under --fabric, or when no stored
 * fabric matches (the store's rule of names then applies). The
 * database is only read, never created.
 */
const char *cli_stored_fabric_name(char *buf, size_t len,
				   const struct ibtopo_fabric *f,
				   const struct cli_global *g);

/** cli_load_fabric(), the failure printed: 0 or EXIT_TROUBLE. */
int cli_load(struct ibtopo_fabric **out, const struct cli_global *g,
	     const struct cli_source *src);

/**
 * The fabric the command's one optional operand (REF|FILE, into
 * src->what) names, after its options: cli_source_operand(), then
 * cli_load(). 0 or EXIT_TROUBLE, the failure printed.
 */
int cli_load_operand(struct ibtopo_fabric **out, const struct cli_cmd *cmd,
		     const struct cli_state *st, int argc, char **argv,
		     const struct cli_global *g, struct cli_source *src);

/* The name standard input goes by in messages, for a FILE given as "-". */
#define CLI_STDIN_NAME "<stdin>"

/**
 * Standard input, read to its end into *buf (malloc'd, *len bytes, a NUL
 * after them). Standard input is read once a run: a second "-" is
 * IBTOPO_EINVAL.
 */
int cli_read_stdin(char **buf, size_t *len, struct ibtopo_error *err);

/**
 * A FILE option: `arg` is returned as it is, and for "-" the text of
 * standard input goes to *text (read once, as by cli_read_stdin: a
 * second "-" exits 2 with the message), else NULL, and CLI_STDIN_NAME
 * is returned to name it in messages. The library reads the text in
 * place of the file the path names.
 */
const char *cli_input_arg(const char *arg, const char **text);

/**
 * The routing engine of --routes tables into *out (malloc'd; NULL when
 * neither is given): `name` (--routing-engine NAME, checked), or the one
 * the OpenSM log `log` names (--routes-log FILE, "-" = standard input).
 * Either without --routes (`routes` false), or both, is a usage error.
 * Returns 0, or the exit status after the message is printed.
 */
int cli_routing_engine(const struct cli_cmd *cmd, char **out, bool routes,
		       const char *name, const char *log);

/** Load a --cables FILE ("-" = standard input) into `fabric`. */
int cli_load_cables(struct ibtopo_fabric *fabric, const char *path,
		    const struct ibtopo_cables_opts *opts,
		    struct ibtopo_error *err);

/**
 * ibtopo_fabric_read_file(), and for "-" the text formats from standard
 * input (named CLI_STDIN_NAME in messages, source "stdin").
 */
int cli_read_fabric_file(struct ibtopo_fabric **out, const char *path,
			 const struct ibtopo_read_opts *ropts,
			 struct ibtopo_error *err);

/** Print `ibtopo: warning: <message>` to stderr (a library warn callback). */
void cli_warn(void *arg, const char *message);

/** Print the "snapshot N: S switches, C CAs, L links; speeds ...; T s" summary. */
void cli_print_summary(FILE *f, const struct ibtopo_fabric *fabric, int64_t id,
		       double seconds);

/* fabric_select.c: several fabrics in one database */

/**
 * ibtopo_store_save_ext() into the fabric cli_fabric() names (else the
 * one the store chooses); the fabric's meta then names it.
 */
int cli_store_save(int64_t *out_id, struct ibtopo_store *store,
		   struct ibtopo_fabric *fabric, const struct cli_global *g,
		   unsigned flags, struct ibtopo_error *err);

/**
 * Two snapshots of two fabrics are not compared: IBTOPO_EINVAL naming
 * both, unless --across-fabrics, and then how many node GUIDs they share
 * goes to stderr. Fabrics not from the store (files) always pass.
 */
int cli_check_pair(const struct cli_global *g, const struct ibtopo_fabric *a,
		   const struct ibtopo_fabric *b, struct ibtopo_error *err);

/**
 * discover --all-ports: discover through each local active InfiniBand
 * port that reaches a subnet not covered yet in this run (not the same
 * master SM, nor at least half the switch GUIDs of one discovered), store
 * one snapshot per fabric, each in the fabric the store chooses, with
 * `label` and `engine` (may be NULL), and print one line per fabric
 * (`quiet`: none; warnings and failures on stderr all the same).
 * Returns the exit status.
 */
int cli_discover_all_ports(const struct cli_cmd *cmd,
			   const struct cli_global *g,
			   const struct ibtopo_discover_opts *dopts,
			   unsigned save_flags, const char *label,
			   const char *engine, bool quiet);

/**
 * Whether any port of `fabric` has a LID. A fabric swept before a subnet
 * manager configured it has none: nothing LID-routed (PMA counters) nor
 * any forwarding table could be read from it.
 */
bool cli_fabric_has_lids(const struct ibtopo_fabric *fabric);

/** Monotonic seconds. */
double cli_now(void);

/**
 * A partial snapshot (or file) says so, once, on stderr: which, and what
 * did not answer. Nothing for a whole one. Every fabric loaded for a
 * command passes here (cli_load_fabric()).
 */
void cli_note_partial(const struct ibtopo_fabric *f);

/* "snapshot 2 ('day2', 2026-01-02 10:00:00 UTC)" into buf; returns buf. */
const char *cli_snapshot_name(char *buf, size_t len,
			      const struct ibtopo_fabric *f);

#endif
