/*
 * ibtopo/compare.h - diff and validate. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_COMPARE_H
#define IBTOPO_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/read.h>
#include <ibtopo/sink.h>
#include <ibtopo/findings.h>
#include <ibtopo/analyze.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Diff compares two fabrics of the same cluster node by node GUID;
 * validate compares a planned fabric with the actual one. Both append
 * findings to `out` that borrow both fabrics (descriptions of the ends
 * point into them): release the list before freeing either fabric. On
 * failure what was appended stays in `out` for the caller to release.
 *
 * Moved cables. "Before" is OLD or the plan, "after" NEW or the actual
 * fabric; only links whose two nodes exist on both sides take part (links
 * of an added, removed, missing or extra node are counted in that node's
 * finding, never listed). A link present on one side only is paired with
 * one on the other side, in this order, and reported as ONE finding
 * (link-moved / miswired-link) instead of a removal and an addition:
 * 1. IBTOPO_MOVE_SWAPPED: links u-v and z-w before are u-w and z-v after
 *    (two cables exchanged, e.g. between leaf ports 3 and 4). The ends are
 *    oriented so that u and z are on the same node when possible.
 * 2. IBTOPO_MOVE_ONE_END: port u has a link on both sides, each present
 *    on one side only (the cable's other end went to another port or
 *    node). When both ends of a link qualify, the end on a CA is taken
 *    (a host's cable was plugged elsewhere), else the link's `a` end.
 * 3. IBTOPO_MOVE_BOTH_PORTS: the same two nodes are linked before and
 *    after, on other ports at both ends.
 * What remains is link-added/link-removed (diff) or extra-link/
 * missing-link (validate).
 */
enum ibtopo_move_subkind {
	IBTOPO_MOVE_ONE_END = 1,
	IBTOPO_MOVE_BOTH_PORTS = 2,
	IBTOPO_MOVE_SWAPPED = 3,
};

/** port-state-changed subkinds. */
enum ibtopo_state_subkind {
	IBTOPO_STATE_LOGICAL = 0,	/* old/new: enum ibtopo_port_state */
	IBTOPO_STATE_PHYSICAL = 1,	/* only PortPhysicalState changed */
};

enum ibtopo_diff_flags {
	IBTOPO_DIFF_LIDS = 1u << 0,	/* report LID changes */
};

struct ibtopo_diff_opts {
	unsigned version;	/* IBTOPO_DIFF_OPTS_VERSION */
	unsigned flags;		/* enum ibtopo_diff_flags */
};
#define IBTOPO_DIFF_OPTS_VERSION 1
#define IBTOPO_DIFF_OPTS_INIT { IBTOPO_DIFF_OPTS_VERSION, 0 }

/**
 * Append the differences between two fabrics to `out`; nodes are the same
 * when their GUIDs are, links when both ends (node GUID, port) are.
 * `opts` may be NULL. Findings, in this order (ends of OLD name OLD's
 * descriptions, ends of NEW name NEW's; their numbers in f->num, see
 * <ibtopo/findings.h>):
 * - node-removed (warning): a = the node in OLD (port -1); num.links.links
 *   = its link count; `note` set when every peer it had is gone too (a
 *   host behind a removed switch). node-added (info): a = the node in
 *   NEW; num.links.links = its links.
 * - node-renamed (info): a = the node in OLD, c = the same node in NEW.
 * - link-moved (warning): a, b = the link in OLD; c, d = the link in NEW
 *   (ONE_END: a and c are the port that kept the cable; BOTH_PORTS: a and c
 *   on one node, b and d on the other). SWAPPED: a-b and c-d are the two
 *   links in OLD; NEW has a-d and c-b.
 * - link-removed (warning): a, b = the link in OLD. link-added (info):
 *   a, b = the link in NEW.
 * - link-speed-changed, link-width-changed (warning when slower, info when
 *   faster): a, b = the link in NEW; num.change.before = OLD's active
 *   speed (width) bit, after = NEW's. Only when both are known.
 * - port-state-changed (warning when the port leaves active or LinkUp,
 *   else info): a = the port in NEW, b = its peer in NEW (port -1 if
 *   none); num.change.before/after = OLD/NEW state, subkind says which state
 *   (enum ibtopo_state_subkind). Only when both are known, and never for
 *   ports of a link that was added, removed or moved.
 * - lid-changed (info; only with IBTOPO_DIFF_LIDS): a = the port (port 0
 *   for a switch); num.change.before/after = OLD/NEW LID. Both known, or 0 for
 *   none on a port whose state was read, not Active (or a switch's port
 *   0): a LID a subnet manager assigned, or one that was lost.
 * - port-error-rate, link-flapping (errors): when both carry port
 *   counters, an error counter that grew from OLD to NEW, as
 *   ibtopo_health_analyze(NEW, OLD) gives them (a = the port in NEW whose
 *   counter grew, b = its peer; num.growth): NEW's
 *   health section when NEW's analysis has since = OLD's fabric.
 * - when both fabrics carry forwarding tables: route-changed (info), one
 *   per destination LID (num.route_change.dlid; b = the port with it)
 *   whose entry changed on a switch with a table on both sides: a = the
 *   first such switch in NEW, port = its new entry; old_port/new_port =
 *   OLD/NEW entry; switches = the switches that changed it.
 *   route-load-changed (info), the (up to 10) switch ports whose CA-to-CA
 *   routes changed most: a = the port; num.change.before/after = OLD/NEW
 *   routes (each analysis' routing section).
 * Returns 0, IBTOPO_EINVAL (no fabric) or IBTOPO_ENOMEM.
 */
int ibtopo_fabric_diff(struct ibtopo_findings *out,
		       struct ibtopo_analysis *old,
		       struct ibtopo_analysis *new_,
		       const struct ibtopo_diff_opts *opts,
		       struct ibtopo_error *err);

struct ibtopo_validate_opts {
	unsigned version;	/* IBTOPO_VALIDATE_OPTS_VERSION */
	/*
	 * POSIX extended regex applied to node descriptions on both sides; its
	 * first capture group (or the whole match) is the name compared, e.g.
	 * "^([^ ]+)" turns "host001 mlx5_0" into "host001". A description it
	 * does not match is compared whole. NULL: descriptions compared whole.
	 */
	const char *match;
	unsigned flags;		/* none yet; 0 */
};
#define IBTOPO_VALIDATE_OPTS_VERSION 1
#define IBTOPO_VALIDATE_OPTS_INIT { IBTOPO_VALIDATE_OPTS_VERSION, NULL, 0 }

/**
 * Compare an actual fabric with its plan and append every deviation to
 * `out`. A plan node is the actual node with the same node GUID (plans
 * with real GUIDs), else the not yet matched node of the same type and
 * name (description, or the `match` capture), preferring an identical
 * description, then the first in the actual fabric's order.
 * `opts` may be NULL. Ends of a matched node carry the ACTUAL node's
 * description and GUID; ends of a plan-only node carry the plan's.
 * Findings, in this order:
 * - missing-node (error): a = the plan's node (port -1; GUID 0 when the
 *   plan made it from the name); num.links.links = its planned links;
 *   `note` set when every planned peer is missing too (behind a missing
 *   switch). extra-node (warning): a = the actual node; num.links.links
 *   = its links.
 * - miswired-link (error, evidence plan): a, b = the cable as found;
 *   c, d = the link as planned (ONE_END: a and c are the same port, b is
 *   the actual peer, d the planned one; BOTH_PORTS: a, c on one node).
 *   SWAPPED: a-b and c-d are the two cables as found; the plan has a-d
 *   and c-b.
 * - missing-link (error): a, b = the planned link. extra-link (error):
 *   a, b = the actual link (e.g. a leaf-to-leaf cable).
 * - speed-below-plan, width-below-plan (error, evidence plan): a, b = the
 *   link; num.rate.expected = planned bit, active = active bit. Only
 *   when the plan states a speed (width) and the actual value is known.
 * Returns 0, IBTOPO_EINVAL (no fabric; bad regex, named in the message)
 * or IBTOPO_ENOMEM.
 */
int ibtopo_fabric_validate(struct ibtopo_findings *out,
			   const struct ibtopo_fabric *plan,
			   const struct ibtopo_fabric *actual,
			   const struct ibtopo_validate_opts *opts,
			   struct ibtopo_error *err);

/**
 * Parameters of a planned fat tree. Zero fields take the defaults shown.
 * levels 2: `leaves` leaf switches with `hosts_per_leaf` hosts each and
 *   `uplinks` cables each, spread evenly over `spines` spine switches.
 * levels 3: `pods` pods, each as above (`leaves` and `spines` per pod);
 *   every pod spine has as many cables up as down, to its own group of
 *   core switches, each core taking one cable from every pod.
 * Names: leafNN, spineNN, coreNN, hostNNN (zero-padded to the count,
 * numbered across pods). Ports: leaf 1..H hosts, H+1..H+U uplinks (uplink
 * k to spine k mod S); spine ports down first, in leaf order, then up;
 * core port p+1 to pod p; host port 1.
 */
struct ibtopo_plan_params {
	unsigned version;	/* IBTOPO_PLAN_PARAMS_VERSION */
	unsigned levels;	/* 2 or 3; 0 = 2 */
	unsigned pods;		/* levels 3 only */
	unsigned leaves;
	unsigned spines;
	unsigned hosts_per_leaf;
	unsigned uplinks;	/* per leaf; 0 = hosts_per_leaf (non-blocking) */
	unsigned radix;		/* ports per switch; 0 = 40 */
	unsigned speed;		/* planned speed bit; 0 = HDR */
	unsigned width;		/* planned width bit; 0 = 4x */
};
#define IBTOPO_PLAN_PARAMS_VERSION 1
#define IBTOPO_PLAN_PARAMS_INIT { IBTOPO_PLAN_PARAMS_VERSION, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/**
 * Build the planned fat tree as a fabric: nodes named as above, with
 * GUIDs synthesized from the names as the topology-file reader does, and
 * every link at the planned speed and width (ports' active values).
 * IBTOPO_EINVAL with a message naming the parameter when the shape is
 * impossible: hosts plus uplinks over the radix, uplinks not a multiple
 * of the spines, spine or core ports over the radix, a count of zero.
 */
int ibtopo_plan_fat_tree(struct ibtopo_fabric **out,
			 const struct ibtopo_plan_params *p,
			 struct ibtopo_error *err);

/**
 * Parameters of a planned rail-optimized fabric (DGX SuperPOD style).
 * `servers` servers of `rails` HCAs each, in scalable units of `unit`
 * servers; each unit has one leaf per rail, HCA k of its servers on the
 * leaf of rail k; every leaf has `uplinks` cables spread evenly over
 * `spines` spine switches. Names: leaves rail<K>-suNN, spineNN, servers
 * dgxNNN whose HCAs are "dgxNNN mlx5_<k>" (k from 0). Ports: leaf 1..U
 * the unit's servers in order, then the uplinks (uplink k to spine k mod
 * S); spine ports down in leaf order (unit by unit, rail by rail).
 */
struct ibtopo_plan_rail_params {
	unsigned version;	/* IBTOPO_PLAN_RAIL_PARAMS_VERSION */
	unsigned servers;
	unsigned rails;
	unsigned spines;
	unsigned unit;		/* servers per unit; 0 = radix / 2 */
	unsigned uplinks;	/* per leaf; 0 = unit (non-blocking) */
	unsigned radix;		/* ports per switch; 0 = 40 */
	unsigned speed;		/* 0 = HDR */
	unsigned width;		/* 0 = 4x */
};
#define IBTOPO_PLAN_RAIL_PARAMS_VERSION 1
#define IBTOPO_PLAN_RAIL_PARAMS_INIT { IBTOPO_PLAN_RAIL_PARAMS_VERSION, 0, 0, 0, 0, 0, 0, 0, 0 }

/**
 * Build the planned rail-optimized fabric as above (GUIDs from names).
 * IBTOPO_EINVAL with a message naming the parameter when the shape is
 * impossible: a count of zero, unit plus uplinks over the radix, uplinks
 * not a multiple of the spines, spine ports over the radix.
 */
int ibtopo_plan_rail_optimized(struct ibtopo_fabric **out,
			       const struct ibtopo_plan_rail_params *p,
			       struct ibtopo_error *err);

/**
 * Parameters of a planned Dragonfly+ fabric: `groups` groups of `leaves`
 * leaf switches with `hosts_per_leaf` hosts and `spines` spine switches,
 * every leaf cabled `uplinks` / `spines` times to each spine of its group;
 * every pair of groups joined by `global` links between spines. Group a's
 * global slots (global x (groups - 1)) go to the other groups in order,
 * slot k on spine k mod S. Names: gNN-leafNN, gNN-spineNN, hostNNN. Ports:
 * leaf 1..H hosts, then uplinks (uplink k to spine k mod S); spine ports
 * down in leaf order, then the global slots.
 */
struct ibtopo_plan_dragonfly_params {
	unsigned version;	/* IBTOPO_PLAN_DRAGONFLY_PARAMS_VERSION */
	unsigned groups;
	unsigned leaves;	/* per group */
	unsigned spines;	/* per group */
	unsigned hosts_per_leaf;
	unsigned uplinks;	/* per leaf; 0 = spines */
	unsigned global;	/* links per pair of groups; 0 = 1 */
	unsigned radix;		/* 0 = 40 */
	unsigned speed;		/* 0 = HDR */
	unsigned width;		/* 0 = 4x */
};
#define IBTOPO_PLAN_DRAGONFLY_PARAMS_VERSION 1
#define IBTOPO_PLAN_DRAGONFLY_PARAMS_INIT { IBTOPO_PLAN_DRAGONFLY_PARAMS_VERSION, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/**
 * Build the planned Dragonfly+ fabric as above. IBTOPO_EINVAL with a
 * message naming the parameter when the shape is impossible: fewer than
 * 2 groups, a count of zero, uplinks not a multiple of the spines, global
 * slots not a multiple of the spines (spines would differ), ports over
 * the radix.
 */
int ibtopo_plan_dragonfly_plus(struct ibtopo_fabric **out,
			       const struct ibtopo_plan_dragonfly_params *p,
			       struct ibtopo_error *err);

/**
 * Write a planned fabric through opts' sink (opts->format is ignored).
 * IBTOPO_FILE_IBNETDISCOVER: a plan file, ibnetdiscover text with node
 * names where GUIDs would be and each port's planned width and speed in
 * its trailer (`[1]	"leaf01"[1]		# "leaf01" lid 0 4xHDR`); the
 * readers and ibsim both read it. IBTOPO_FILE_IBSIM: an ibsim net file
 * whose enabled masks (global, and w= s= e= on both ends of a link that
 * differs) make every link train as planned; ibsim gives its own GUIDs.
 * IBTOPO_EINVAL for another format, a speed ibsim cannot simulate, or a
 * node name that is empty or holds '"', '#' or '@'; the sink's error as
 * "cannot write the plan".
 */
int ibtopo_plan_write(const struct ibtopo_sink *sink,
		      const struct ibtopo_fabric *plan,
		      enum ibtopo_file_format format,
		      struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_COMPARE_H */
