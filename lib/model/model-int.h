/*
 * model-int.h - private to libibtopo: the ground floor. Errors, growing
 * arrays, fabric internals and node descriptions, with config.h, the
 * public headers and the base macros; it includes nothing of lib/ above
 * it, and every module includes it (through ibtopo-int.h above out/).
 */
#ifndef IBTOPO_MODEL_INT_H
#define IBTOPO_MODEL_INT_H

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
/** Natural order of two names: "leaf2" before "leaf10" (strcmp-like). */
int ibtopo__natcmp(const char *a, const char *b);
#define IBTOPO__QUOTE_MAX 80	/* a buffer for one quoted name or token */

/* model/threads.c */
/** One task of ibtopo__parallel(): 0 or an error (set in err). */
typedef int ibtopo__task_fn(void *arg, unsigned worker, size_t task,
			    struct ibtopo_error *err);
/**
 * Run tasks 0..ntasks-1 on up to `nworkers` threads (the caller's is
 * worker 0; a worker id is below nworkers), each task once, in no set
 * order; after the first failure no task starts. Returns 0 or the error
 * of the lowest worker that failed.
 */
int ibtopo__parallel(size_t ntasks, unsigned nworkers, ibtopo__task_fn *fn,
		     void *arg, struct ibtopo_error *err);

/* model/grow.c */
/**
 * Make the array at *pptr (of elements of `size` bytes, `*alloc` of them
 * allocated) hold at least `need`, doubling from 16; on failure the array
 * is untouched. Returns 0 or IBTOPO_ENOMEM.
 */
int ibtopo__grow(void *pptr, size_t *alloc, size_t need, size_t size);

/* model/fabric.c */
/** strdup into fabric-owned memory (freed with the fabric); NULL -> NULL. */
char *ibtopo__fabric_strdup(struct ibtopo_fabric *fabric, const char *s);
/** The links that carry cable data. */
size_t ibtopo__fabric_cable_count(const struct ibtopo_fabric *fabric);
/**
 * Port `p`, cabled to p->remote, is claimed by a second peer `other` as
 * well: one cable cannot end in two places, so two nodes answer with p's
 * node GUID. Records the clash (ibtopo_fabric_add_guid_clash()).
 */
int ibtopo__fabric_port_clash(struct ibtopo_fabric *fabric,
			      const struct ibtopo_port *p,
			      const struct ibtopo_port *other,
			      struct ibtopo_error *err);

/* model/pkeys.c */
/** Free a port's PKeys (NULL is fine). */
void ibtopo__pkeys_free(struct ibtopo_pkeys *pkeys);
/* model/mcast.c: the multicast groups a fabric carries */
struct ibtopo__mcast_groups {
	struct ibtopo_mcast_group *group;
	size_t count, alloc;
	bool read;		/* the SA was asked */
};
/** The fabric's groups (fabric.c keeps them, mcast.c fills them). */
struct ibtopo__mcast_groups *
ibtopo__fabric_mcast(const struct ibtopo_fabric *fabric);
void ibtopo__mcast_groups_release(struct ibtopo__mcast_groups *g);
void ibtopo__mft_free(struct ibtopo_mft *mft);

/**
 * Data a layer above keeps on a fabric (lib/discover/pma.c: each switch's
 * AllPortSelect counter sums, for the next counters-only sweep), freed
 * with aux_free() when replaced or with the fabric; never copied.
 */
void ibtopo__fabric_set_aux(struct ibtopo_fabric *fabric, void *aux,
			    void (*aux_free)(void *aux));
void *ibtopo__fabric_aux(const struct ibtopo_fabric *fabric);

/* model/fabric_copy.c */
/**
 * A copy of `src` without the nodes drop_node[node index] and the links
 * drop_link[link index] mark (either NULL: none), nor the links of a
 * node left out: the fabric as it is when they fail. Nodes keep their
 * order; counters and forwarding tables are not copied. *out belongs to
 * the caller (ibtopo_fabric_free()); NULL on failure. 0 or IBTOPO_ENOMEM.
 */
int ibtopo__fabric_copy(struct ibtopo_fabric **out,
			const struct ibtopo_fabric *src, const bool *drop_node,
			const bool *drop_link, struct ibtopo_error *err);

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
 * The first word of a description: blanks before it skipped (*desc moves
 * to it), its length returned. What a diagram labels a CA by, and the
 * name ibtopo__ca_host_name() falls back to.
 */
size_t ibtopo__desc_first_word(const char **desc);
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

#endif /* IBTOPO_MODEL_INT_H */
