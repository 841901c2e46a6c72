/*
 * ibtopo-int.h - private to libibtopo: helpers shared across lib/ files.
 * Never included by src/ or examples/.
 */
#ifndef IBTOPO_INT_H
#define IBTOPO_INT_H

#include "config.h"
#include "ibtopo.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#define IBTOPO__ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define IBTOPO__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define IBTOPO__PRINTF(f, a)
#endif

/* model/error.c */
/** Record code and message in err (may be NULL); returns code. */
int ibtopo__error_set(struct ibtopo_error *err, int code, const char *fmt, ...)
	IBTOPO__PRINTF(3, 4);
int ibtopo__error_vset(struct ibtopo_error *err, int code, const char *fmt,
		       va_list ap);
/**
 * ibtopo__error_set() for a message that quotes input (a file's bytes):
 * the whole message goes through ibtopo__quote(), so no control byte or
 * invalid UTF-8 reaches a terminal and it fits the buffer, cut with "...".
 */
int ibtopo__error_set_input(struct ibtopo_error *err, int code,
			    const char *fmt, ...) IBTOPO__PRINTF(3, 4);
/** Prefix an existing message with "what: " keeping its code. */
int ibtopo__error_prefix(struct ibtopo_error *err, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);
/**
 * Input text as an error message may quote it: `n` bytes of `s` (up to a
 * NUL) into buf, printable ASCII and well-formed UTF-8 as they are,
 * every other byte (controls, DEL, invalid or overlong UTF-8) and the
 * backslash as "\xNN", cut with "..." to fit `len`. Returns buf, always
 * NUL-terminated (len > 0).
 */
const char *ibtopo__quote(char *buf, size_t len, const char *s, size_t n);
#define IBTOPO__QUOTE_MAX 80	/* a buffer for one quoted name or token */

/* model/grow.c */
/**
 * Make the array at *pptr (of elements of `size` bytes, `*alloc` of them
 * allocated) hold at least `need`, doubling from 16; on failure the array
 * is untouched. Returns 0 or IBTOPO_ENOMEM.
 */
int ibtopo__grow(void *pptr, size_t *alloc, size_t need, size_t size);

/* io/store.c */
/**
 * Run SQL on a database file, creating it; no schema checks (for tests).
 * The first column of the last row any statement returned goes to *out
 * (may be NULL).
 */
int ibtopo__store_exec_path(const char *path, const char *sql, int64_t *out,
			    struct ibtopo_error *err);

/* io/sweep.c: the live sweep, for discover.c (see there) */
struct ibnd_fabric;
struct ibnd_config;
/**
 * Walk the fabric through local `ca` port `portnum` into a new libibnetdisc
 * fabric (free it with ibtopo__sweep_free(), never ibnd_destroy_fabric()).
 * SMPs that go unanswered are left out, not reported.
 */
int ibtopo__sweep(struct ibnd_fabric **out, const char *ca, int portnum,
		  const struct ibnd_config *cfg, struct ibtopo_error *err);
void ibtopo__sweep_free(struct ibnd_fabric *fabric);

/* io/pma.c: port counters of a discovered fabric (see there) */
/**
 * Read PortCounters (and PortCountersExtended where ClassPortInfo says
 * so) of every linked port with a LID through local `ca` port `portnum`,
 * Gets only, and attach them to the ports. *out_missed counts the linked
 * ports left without counters (no LID, or their PMA did not answer).
 */
int ibtopo__pma_read(struct ibtopo_fabric *fabric, const char *ca, int portnum,
		     unsigned timeout_ms, size_t *out_missed,
		     struct ibtopo_error *err);

/* model/fabric.c */
/** strdup into fabric-owned memory (freed with the fabric); NULL -> NULL. */
char *ibtopo__fabric_strdup(struct ibtopo_fabric *fabric, const char *s);

/** A name a node goes by besides its description (into buf, or static). */
typedef const char *ibtopo__node_namer(void *arg, const struct ibtopo_node *node,
				       char *buf, size_t len);

/** How ibtopo__fabric_lookup() reads a name a person gave. */
struct ibtopo__node_lookup {
	unsigned types;		/* 1u << enum ibtopo_node_type taken; 0 = all */
	/* also GUIDs without "0x", and ibnetdiscover ids ("S-<hex>") */
	bool bare_guids;
	/* a second name, tried when no description matches; may be NULL */
	ibtopo__node_namer *alias;
	void *alias_arg;
	/* nodes sorted by description (ibtopo__fabric_desc_index()), for
	 * many lookups; NULL: scan the fabric */
	struct ibtopo_node *const *by_desc;
	size_t nby_desc;
};

/**
 * The one node `name` names, as ibtopo_fabric_find_node_name() reads it,
 * with `how` (may be NULL) narrowing the types and adding an alias.
 * IBTOPO_ENOTFOUND "no node '<name>' in the fabric" ("switch" when only
 * switches are taken); IBTOPO_EAMBIGUOUS listing the GUIDs of the nodes
 * the name fits; IBTOPO_EINVAL without a fabric or name.
 */
int ibtopo__fabric_lookup(struct ibtopo_node **out,
			  const struct ibtopo_fabric *fabric, const char *name,
			  const struct ibtopo__node_lookup *how,
			  struct ibtopo_error *err);
/** The fabric's nodes sorted by description, for the lookup; free() it. */
int ibtopo__fabric_desc_index(struct ibtopo_node ***out, size_t *count,
			      const struct ibtopo_fabric *fabric);

/*
 * Names that name one node. Text output names a node by its description
 * (or a short name); where several nodes go by the same name it adds the
 * GUID: "Infiniscale-IV Mellanox Technologies (0x0008f10500200a2c)".
 */
struct ibtopo__shared_names {
	char **names;		/* sorted; each names two nodes or more */
	size_t n;
};

/**
 * Collect the names that several nodes share: the names of the nodes of
 * `fabrics` (descriptions, or what `namer` gives them) and, when `namer`
 * is NULL, the ends of `list` (may be NULL). A name is shared when it
 * goes with two GUIDs. Returns 0 or IBTOPO_ENOMEM.
 */
int ibtopo__shared_names_init(struct ibtopo__shared_names *out,
			      const struct ibtopo_fabric *const *fabrics,
			      size_t nfabrics, const struct ibtopo_findings *list,
			      ibtopo__node_namer *namer, void *arg);
void ibtopo__shared_names_release(struct ibtopo__shared_names *s);
/** True if several nodes go by `name`. */
bool ibtopo__shared_names_has(const struct ibtopo__shared_names *s,
			      const char *name);
/**
 * `name` for text, into buf: as it is when one node goes by it, else
 * "name (0x<guid>)". A NULL or empty name gives the GUID. Returns buf.
 */
const char *ibtopo__name_node(const struct ibtopo__shared_names *s,
			      const char *name, uint64_t guid, char *buf,
			      size_t len);

/* report/output.c: a sink with formatted writes */
int ibtopo__out_write(const struct ibtopo_render_opts *opts, const char *buf,
		      size_t len);
int ibtopo__out_printf(const struct ibtopo_render_opts *opts, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);
int ibtopo__out_vprintf(const struct ibtopo_render_opts *opts, const char *fmt,
			va_list ap) IBTOPO__PRINTF(2, 0);
/** RFC 4180 field: quoted when it holds a comma, quote, CR or LF. */
int ibtopo__out_csv_field(const struct ibtopo_render_opts *opts, const char *s);

/* A sink that remembers its first failure, so a writer reads straight. */
struct ibtopo__wr {
	const struct ibtopo_render_opts *o;
	int rc;
};

/** Formatted output unless an earlier write failed; the failure stays in w->rc. */
void ibtopo__wr_printf(struct ibtopo__wr *w, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);

/* report/table.c: one column list, three formats */
enum ibtopo__ctype {
	IBTOPO__STR,	/* s; NULL -> JSON null, empty in CSV/text */
	IBTOPO__INT,	/* i */
	IBTOPO__GUID,	/* g; "0x%016" PRIx64, 0 -> null */
	IBTOPO__REAL,	/* d */
	IBTOPO__BOOL,	/* b */
	IBTOPO__STRLIST,/* list of n strings in sv (JSON array; "a,b" in text/CSV) */
	IBTOPO__NULL,	/* no value */
};

#define IBTOPO__STRLIST_MAX 12

struct ibtopo__cell {
	enum ibtopo__ctype type;
	const char *s;
	int64_t i;
	uint64_t g;
	double d;
	bool b;
	const char *sv[IBTOPO__STRLIST_MAX];
	size_t n;
	char buf[64];	/* scratch for accessors that format */
};

/**
 * A column: `name` is the JSON key; a dot nests ("a.node" -> "a":{"node"}).
 * CSV headers are the dotted names. get() fills the cell for one row.
 */
struct ibtopo__column {
	const char *name;
	const char *title;	/* text table header */
	void (*get)(const void *row, void *ctx, struct ibtopo__cell *out);
};

/**
 * Write rows as a text table, CSV, or JSON
 * {"schema_version":1,"<list_name>":[...]}.
 */
int ibtopo__table_write(const struct ibtopo_render_opts *opts, const char *list_name,
			const struct ibtopo__column *cols, size_t ncols,
			const void *const *rows, size_t nrows, void *ctx,
			struct ibtopo_error *err);

/* report/json.c: the only file including <jansson.h>. Values are jansson json_t. */
struct ibtopo__json;
struct ibtopo__json *ibtopo__json_object(void);
struct ibtopo__json *ibtopo__json_array(void);
struct ibtopo__json *ibtopo__json_string(const char *s);	/* NULL -> null */
struct ibtopo__json *ibtopo__json_int(int64_t v);
struct ibtopo__json *ibtopo__json_real(double v);
struct ibtopo__json *ibtopo__json_bool(bool v);
struct ibtopo__json *ibtopo__json_null(void);
struct ibtopo__json *ibtopo__json_guid(uint64_t guid);		/* 0 -> null */
/** Set obj[key] = value, taking the reference; returns 0 or IBTOPO_ENOMEM. */
int ibtopo__json_set(struct ibtopo__json *obj, const char *key,
		     struct ibtopo__json *value);
/** Set obj[a][b]... along a dotted path, creating objects. */
int ibtopo__json_set_path(struct ibtopo__json *obj, const char *dotted,
			  struct ibtopo__json *value);
int ibtopo__json_append(struct ibtopo__json *arr, struct ibtopo__json *value);
/** Write compactly (keys in insertion order), no newline. */
int ibtopo__json_write(const struct ibtopo_render_opts *opts,
		       struct ibtopo__json *value, struct ibtopo_error *err);
/** Write compactly (keys in insertion order) plus "\n" to the sink. */
int ibtopo__json_dump(const struct ibtopo_render_opts *opts,
		      struct ibtopo__json *value, struct ibtopo_error *err);
void ibtopo__json_free(struct ibtopo__json *value);
/** Speed or width set as a JSON array of names. */
struct ibtopo__json *ibtopo__json_speed_set(unsigned mask);
struct ibtopo__json *ibtopo__json_width_set(unsigned mask);

/* model/desc.c: what a node description says */
/**
 * A description the firmware wrote, naming no host: empty, "... Mellanox
 * Technologies", "... NVIDIA Technologies", "MT4129 ConnectX7 ...".
 */
bool ibtopo__desc_is_default(const char *desc);
/** A SHARP aggregation node says so ("Mellanox Technologies Aggregation Node"). */
bool ibtopo__desc_is_aggregation(const char *desc);
/**
 * A CA that is part of a switch, not a host: an aggregation node, or one
 * sharing the system image GUID of a switch it is cabled to.
 */
bool ibtopo__node_in_switch(const struct ibtopo_node *ca);
/**
 * The length of the host name a CA description starts with, from
 * "<host> <adapter>" ("node017 mlx5_0", "dgx-08 HCA-3"): the first word,
 * when the second names an adapter and the first is a real host name;
 * 0 for firmware defaults, "localhost" and anything else.
 */
size_t ibtopo__desc_host_word(const char *desc);
/**
 * A name for every CA, for outputs that must list each host (Slurm's
 * Nodes=), into buf: its host word; else, when a person wrote the
 * description ("compute-01"), its first word; else "H-<guid>", as
 * ibnetdiscover calls the node. Only a host name
 * (ibtopo__is_host_name()) is taken from a description. Returns buf.
 */
const char *ibtopo__ca_host_name(const struct ibtopo_node *ca, char *buf,
				 size_t len);
/** Letters, digits, '-', '_' and '.' only, and at least one. */
bool ibtopo__is_name_word(const char *s, size_t n);
/** A name word that names a host: not "localhost". */
bool ibtopo__is_host_name(const char *s, size_t n);
/**
 * The <name> of a Mellanox/NVIDIA switch description
 * "MF0;<name>:<model>/<unit>" (up to the colon, or the end): its length,
 * its start in *start; 0 for other descriptions.
 */
size_t ibtopo__desc_switch_name(const char *desc, const char **start);
/**
 * A node's short name, into buf: a switch's "MF0;" <name>, else the
 * description, else "0x<guid>". Returns buf.
 */
const char *ibtopo__node_short_name(const struct ibtopo_node *node, char *buf,
				    size_t len);

/* compare/diff.c: pairs the links of two fabrics whose nodes are matched (diff by
 * GUID, validate by name); the rule is documented in ibtopo.h. */
enum ibtopo__lstate {
	IBTOPO__L_NODE = 1,	/* a node of the link has no counterpart */
	IBTOPO__L_SAME,		/* the same two ports are linked on both sides */
	IBTOPO__L_ONLY,		/* on this side only, unpaired */
	IBTOPO__L_MOVED,	/* on this side only, paired into a move */
};

/* ONE_END, BOTH_PORTS: b[0]-b[1] before, a[0]-a[1] after, a[0] and b[0]
 * the kept end. SWAPPED: b[0]-b[1], b[2]-b[3] before; a[0]-a[1],
 * a[2]-a[3] after, where a[i] is the counterpart of b[0], b[3], b[2], b[1]. */
struct ibtopo__move {
	int subkind;	/* enum ibtopo_move_subkind */
	const struct ibtopo_port *b[4];
	const struct ibtopo_port *a[4];
};

struct ibtopo__link_pairing {
	unsigned char *bstate;	/* per before link (by index): enum ibtopo__lstate */
	unsigned char *astate;	/* per after link */
	const struct ibtopo_link **same;	/* after link of each SAME before link */
	struct ibtopo__move *moves;
	size_t nmoves;
};

/**
 * Classify and pair the links of `before` and `after`. b2a[i] is the after
 * node matched to before node i (NULL = none), a2b the inverse; the
 * matching must be one-to-one. Release with ibtopo__link_pairing_release.
 */
int ibtopo__link_pairing_build(struct ibtopo__link_pairing *out,
			       const struct ibtopo_fabric *before,
			       const struct ibtopo_fabric *after,
			       struct ibtopo_node *const *b2a,
			       struct ibtopo_node *const *a2b,
			       struct ibtopo_error *err);
void ibtopo__link_pairing_release(struct ibtopo__link_pairing *p);
/** Number of ports of a node with a peer. */
unsigned ibtopo__node_link_count(const struct ibtopo_node *node);
/** True if the node has peers and none of them has a counterpart in map. */
bool ibtopo__peers_all_unmatched(const struct ibtopo_node *node,
				 struct ibtopo_node *const *map);

/* io/cables.c: the cable reach table (data/cable-reach.tsv) */
struct ibtopo__reach;
/**
 * Load a reach table from `path`, or the built-in copy of
 * data/cable-reach.tsv when path is NULL. IBTOPO_EIO, IBTOPO_EPARSE
 * ("<path>:<line>: ..."), IBTOPO_ENOMEM.
 */
int ibtopo__reach_load(struct ibtopo__reach **out, const char *path,
		       struct ibtopo_error *err);
/** Parse a reach table held in memory; `name` names it in errors. */
int ibtopo__reach_parse(struct ibtopo__reach **out, const char *text,
			const char *name, struct ibtopo_error *err);
void ibtopo__reach_free(struct ibtopo__reach *table);
/** Metres for one speed bit and media; 0 when the table has no row. */
double ibtopo__reach_lookup(const struct ibtopo__reach *table, unsigned speed,
			    enum ibtopo_media media);

/* analysis/check_speed.c: peer evidence for fabrics without supported sets */
/**
 * Adapter model key of a CA: vendor:device when known, else the HCA name
 * its description ends with ("mlx5_0" -> "mlx5"), else the description;
 * 0 when nothing is known (empty description).
 */
uint64_t ibtopo__adapter_model(const struct ibtopo_node *node);

/* analysis/check_cable.c: per-link cable checks run by ibtopo_check_links() */
/** cable-underrated when the cable is rated below `capable` (a speed bit). */
int ibtopo__check_cable_rating(struct ibtopo_findings *out,
			       const struct ibtopo_link *link, unsigned capable,
			       struct ibtopo_error *err);
/** cable-over-length against the reach table. */
int ibtopo__check_cable_length(struct ibtopo_findings *out,
			       const struct ibtopo_link *link,
			       const struct ibtopo__reach *reach,
			       struct ibtopo_error *err);
/** loopback-cable when both ends are on one switch. */
int ibtopo__check_loopback(struct ibtopo_findings *out,
			   const struct ibtopo_link *link,
			   struct ibtopo_error *err);

/* io/ibsim.c: ibsim's encodings of widths and speeds, and its training */
/* Enabled masks: width (IBA bits = ibtopo's), speed, extended speed, FDR10. */
struct ibtopo__ibsim_masks {
	uint8_t w, s, e, m;
};

/* What a port enables when the file says nothing. */
#define IBTOPO__IBSIM_WIDTH_DEFAULT 2	/* 4x */
#define IBTOPO__IBSIM_SPEED_DEFAULT 1	/* SDR */

/** ibsim speed and extended speed masks (and the FDR10 bit) -> speed set. */
unsigned ibtopo__ibsim_speed_set(unsigned s, unsigned e, bool fdr10);
/**
 * The s, e and m masks that make a link train at `speed`: its bits only,
 * or with `slower_too` every slower speed enabled as well. The width
 * is left alone. IBTOPO_EINVAL for a speed ibsim does not know.
 */
int ibtopo__ibsim_speed_masks(struct ibtopo__ibsim_masks *out, unsigned speed,
			      bool slower_too);
/** FDR10 cannot be a port option: only a trailer ("lid 0 4xFDR10") sets it. */
bool ibtopo__ibsim_needs_trailer(unsigned speed);
/** The masks a trailer "<wnum>x<speed>" sets, as ibsim reads it. */
void ibtopo__ibsim_trailer(struct ibtopo__ibsim_masks *m, unsigned wnum,
			   const char *speed, size_t n);
/** Enabled widths that train at `width` (0: 4x), and 1x. */
unsigned ibtopo__ibsim_width_mask(unsigned width);
/** The width and speed ibsim trains from the masks both ends enable. */
unsigned ibtopo__ibsim_train_width(unsigned w);
unsigned ibtopo__ibsim_train_speed(unsigned s, unsigned e, bool fdr10);
/** The speeds ibsim says a port supports, from the common ext. speeds. */
unsigned ibtopo__ibsim_speed_supported(unsigned e, bool fdr10);

/* io/namemap.c */
/** Read a whole file into a malloc'd buffer (not NUL-terminated). */
int ibtopo__read_whole_file(char **out, size_t *out_len, const char *path,
			    struct ibtopo_error *err);

/* report/report_findings.c */
/** Findings as a JSON array (NULL list: empty); NULL when out of memory. */
struct ibtopo__json *ibtopo__findings_json(const struct ibtopo_findings *list);
/** Findings as text tables grouped by severity, or "no findings". */
int ibtopo__findings_text(const struct ibtopo_render_opts *opts,
			  const struct ibtopo_findings *list,
			  struct ibtopo_error *err);

/* report/report_topology.c: the topology analysis in reports */
struct ibtopo_topology;
/** Add "topology" and "paths" objects to a JSON object. */
int ibtopo__topology_json(struct ibtopo__json *root,
			  const struct ibtopo_topology *t);
/** The architect's summary: class, level table, blocking, path diversity. */
int ibtopo__topology_text(const struct ibtopo_render_opts *o,
			  const struct ibtopo_topology *t);

#endif /* IBTOPO_INT_H */
