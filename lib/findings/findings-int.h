/*
 * findings-int.h - private to libibtopo: the table of finding kinds.
 *
 * Every kind of finding is described once, by a struct ibtopo__finding_kind
 * in the file of its area (kinds_links.c, kinds_topology.c, kinds_subnet.c,
 * kinds_validate.c, kinds_diff.c, kinds_health.c, kinds_routes.c), and
 * registered by one line in kinds.c. Analyses only fill in findings; the
 * report layer asks the table for the name, the sentence and the family
 * (which keys its numbers go to, families.c), the diagram for how to
 * draw it. A new kind: its enumerator in <ibtopo/findings.h> (at the end:
 * the numbers are kept), its descriptor in its area's file (with its
 * family), its registration in kinds.c, and its stable name and family
 * in tests/test_findings.c (HACKING.md walks through it).
 */
#ifndef IBTOPO_FINDINGS_INT_H
#define IBTOPO_FINDINGS_INT_H

#include "ibtopo-int.h"

/*
 * How a diagram draws a finding (lib/diagram: colours and styles). Link
 * marks colour the link between ends a and b; "ghost" marks draw links
 * or nodes the drawn fabric lacks, dashed.
 */
enum ibtopo__draw {
	IBTOPO__DRAW_NONE = 0,		/* not drawn */
	IBTOPO__DRAW_DOWNGRADE,		/* a-b red; not info (not a fault) */
	IBTOPO__DRAW_CABLE,		/* a-b orange */
	IBTOPO__DRAW_TOPOLOGY,		/* a-b purple, else nodes a (b) marked */
	IBTOPO__DRAW_LOW_PATHS,		/* nodes a (and b) double border */
	IBTOPO__DRAW_EXTRA_LINK,	/* a-b teal */
	IBTOPO__DRAW_ADDED_LINK,	/* a-b green */
	IBTOPO__DRAW_CHANGED_LINK,	/* a-b blue */
	IBTOPO__DRAW_REMOVED_LINK,	/* a-b ghost */
	IBTOPO__DRAW_MISSING_LINK,	/* a-b ghost */
	IBTOPO__DRAW_MOVED_LINK,	/* a-b (c-d) ghosts, c-d (a-d, c-b) green */
	IBTOPO__DRAW_MISWIRED_LINK,	/* a-b (c-d) pink, c-d (a-d, c-b) ghosts */
	IBTOPO__DRAW_ADDED_NODE,	/* node a marked */
	IBTOPO__DRAW_EXTRA_NODE,	/* node a marked */
	IBTOPO__DRAW_REMOVED_NODE,	/* node a ghost */
	IBTOPO__DRAW_MISSING_NODE,	/* node a ghost */
	IBTOPO__DRAW_MAX_
};

/*
 * The family of a kind: which member of f->num it fills (<ibtopo/
 * findings.h> names each member's fields and the kinds that use it), and
 * so which JSON/CSV keys it has (families.c, the one table of them).
 * Each is named as its member is: IBTOPO__FAMILY_RATE fills f->num.rate.
 */
enum ibtopo__family {
	IBTOPO__FAMILY_NONE = 0,	/* nothing measured */
	IBTOPO__FAMILY_RATE,
	IBTOPO__FAMILY_RATING,
	IBTOPO__FAMILY_REACH,
	IBTOPO__FAMILY_UNCHECKED,
	IBTOPO__FAMILY_CABLE_ROW,
	IBTOPO__FAMILY_LINKS,
	IBTOPO__FAMILY_PORTS,
	IBTOPO__FAMILY_PATHS,
	IBTOPO__FAMILY_TREE,
	IBTOPO__FAMILY_RAIL,
	IBTOPO__FAMILY_DRAGONFLY,
	IBTOPO__FAMILY_CHANGE,
	IBTOPO__FAMILY_COUNTER,
	IBTOPO__FAMILY_GROWTH,
	IBTOPO__FAMILY_MEASURE,
	IBTOPO__FAMILY_ROUTE,
	IBTOPO__FAMILY_DETOUR,
	IBTOPO__FAMILY_ROUTE_CHANGE,
	IBTOPO__FAMILY_MCAST,
	IBTOPO__FAMILY_PORT_GUID,
	IBTOPO__FAMILY_LIDS,
	IBTOPO__FAMILY_NODES,
	IBTOPO__FAMILY_LINK_CAP,
	IBTOPO__FAMILY_SM,
	IBTOPO__FAMILY_FIRMWARE,
	IBTOPO__FAMILY_PKEY,
	IBTOPO__FAMILY_MAX_
};

/* How a field of a family is written in the machine formats. */
enum ibtopo__unit {
	IBTOPO__UNIT_NONE = 0,		/* not shown */
	IBTOPO__UNIT_SPEED,		/* speed bit; 0 = not shown */
	IBTOPO__UNIT_WIDTH,		/* width bit; 0 = not shown */
	IBTOPO__UNIT_COUNT,		/* a whole number, always shown */
	IBTOPO__UNIT_PORT_STATE,	/* port or physical state (subkind) */
	IBTOPO__UNIT_KIND,		/* the kind's unit (.unit) */
	IBTOPO__UNIT_REAL,		/* a real number */
	IBTOPO__UNIT_MS_AS_S,		/* milliseconds, written in seconds */
	IBTOPO__UNIT_COUNTER,		/* the subkind's counter name */
	IBTOPO__UNIT_MEDIA,		/* the subkind's media; 0 = not shown */
};

/* The C type of a family's field. */
enum ibtopo__detail_type {
	IBTOPO__DT_UNSIGNED,
	IBTOPO__DT_DOUBLE,
	IBTOPO__DT_SUBKIND,	/* f->subkind (no field of its own) */
};

/* One field of a family that the machine formats write, under `key`. */
struct ibtopo__detail {
	const char *key;
	enum ibtopo__unit unit;
	enum ibtopo__detail_type type;
	size_t offset;		/* in struct ibtopo_finding */
};

/* families.c */
/** The keyed fields of a family, in no set order; *n gets their count. */
const struct ibtopo__detail *ibtopo__family_details(enum ibtopo__family fam,
						    size_t *n);
/** The family's name ("rate", the member of f->num), or NULL. */
const char *ibtopo__family_name(enum ibtopo__family fam);

/**
 * One sentence a person can act on into buf, like snprintf(). `names`
 * (may be NULL) are the descriptions several nodes share: an end named by
 * one of those gets its GUID (ibtopo__sentence_end()).
 */
typedef int ibtopo__sentence_fn(char *buf, size_t len,
				const struct ibtopo_finding *f,
				const struct ibtopo__shared_names *names);

struct ibtopo__finding_kind {
	enum ibtopo_finding_kind kind;
	const char *name;		/* stable: JSON, CSV, text */
	enum ibtopo_severity severity;	/* what ibtopo__finding_init() sets */
	ibtopo__sentence_fn *sentence;
	/* stable name of a subkind ("detail"), or NULL; may be NULL */
	const char *(*subkind_name)(int subkind);
	enum ibtopo__draw draw;
	enum ibtopo__family family;	/* the member of f->num it fills */
	/* IBTOPO__UNIT_SPEED, _WIDTH, _COUNT or _PORT_STATE: the unit of its
	 * family's fields of IBTOPO__UNIT_KIND (rate, change) */
	enum ibtopo__unit unit;
};

/* kinds.c: the registry */
/** The descriptor of a kind, or NULL for an unknown kind. */
const struct ibtopo__finding_kind *
ibtopo__finding_kind(enum ibtopo_finding_kind kind);

/* findings.c: building findings, and what sentences share */
/**
 * A blank finding of `kind`: the kind's default severity, every end
 * unset (no node, GUID 0, port -1), everything else 0.
 */
void ibtopo__finding_init(struct ibtopo_finding *f, enum ibtopo_finding_kind kind);
/** ibtopo__finding_init() with ends a and b the link's ends. */
void ibtopo__finding_init_link(struct ibtopo_finding *f,
			       enum ibtopo_finding_kind kind,
			       const struct ibtopo_link *link);
/** The sentence of a finding; `names` may be NULL (see above). */
int ibtopo__finding_sentence(char *buf, size_t len,
			     const struct ibtopo_finding *f,
			     const struct ibtopo__shared_names *names);
/** Stable subkind name of a finding ("detail"), or NULL. */
const char *ibtopo__finding_subkind_name(const struct ibtopo_finding *f);
/** An end as a sentence names it: "'desc'", "'desc' (0x...)", a GUID. */
const char *ibtopo__sentence_end(const struct ibtopo__shared_names *names,
				 const struct ibtopo_end *e, char *buf,
				 size_t len);
/** Speed or width name; "an unknown speed/width" for 0. */
const char *ibtopo__sentence_speed(unsigned bit);
const char *ibtopo__sentence_width(unsigned bit);

/* kinds_diff.c: subkinds of link-moved, shared with miswired-link */
const char *ibtopo__move_subkind_name(int subkind);
/* kinds_links.c: subkinds of speed/width downgrades (peer classes) */
const char *ibtopo__peer_subkind_name(int subkind);

#endif /* IBTOPO_FINDINGS_INT_H */
