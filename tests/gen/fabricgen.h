/*
 * fabricgen.h - test fabrics built in memory through the public API:
 * fat trees (2 and 3 levels, full or oversubscribed, single or dual-homed
 * servers, with chosen faults), a single switch, hub and spoke, ring,
 * full mesh and 2-D grid or torus. Used by the unit tests, gen-fabric
 * (which writes them as ibsim net files) and the benchmark.
 *
 * Names: switches "spine01", "leaf01", for 3 levels "core01",
 * "agg01-02" (pod 01, second aggregation switch), "leaf01-02";
 * directors "MF0;dir1:IS5600/L01/U1" (line chip), ".../S01/U1" (fabric
 * chip), their edge switches "edge01";
 * Dragonfly+ "g01-leaf01", "g01-spine01"; rails "rail1-su01" leaves, "spine01", servers "dgx0001 mlx5_0".."mlx5_<R-1>";
 * servers "host0001 mlx5_0" (and "host0001 mlx5_1" for the second port
 * of a dual-homed server: another CA with the same system image GUID).
 */
#ifndef FABRICGEN_H
#define FABRICGEN_H

#include <ibtopo.h>

#include <stdbool.h>

enum fg_shape {
	FG_FAT_TREE = 0,	/* levels 2 or 3 */
	FG_SINGLE,		/* one switch with hosts */
	FG_STAR,		/* hub with `spokes` leaves, one cable each */
	FG_RING,		/* `switches` in a ring, hosts on each */
	FG_MESH,		/* `switches` all linked to all, hosts on each */
	FG_GRID,		/* rows x cols 2-D grid, hosts on each */
	FG_TORUS,		/* rows x cols 2-D torus, hosts on each */
	FG_DIRECTOR,		/* edge switches under director chassis */
	FG_RAILS,		/* rail-optimized: `units` x `rails` leaves */
	FG_DRAGONFLY,		/* Dragonfly+: `groups` of leaves and spines */
};

/* Faults a generated fat tree can carry. */
enum fg_fault {
	FG_FAULT_SAME_LEVEL = 1u << 0,	/* cable leaf 1 to leaf 2 */
	FG_FAULT_DROP_UPLINK = 1u << 1,	/* leaf 1 loses its cables to spine 1 */
	FG_FAULT_MISSING_SPINE = 1u << 2, /* the last spine (or core) absent */
	FG_FAULT_LEVEL_SKIP = 1u << 3,	/* 3 levels: leaf 1 cabled to core 1 */
	FG_FAULT_HOST_ON_SPINE = 1u << 4, /* a server on spine 1 */
	FG_FAULT_PILED = 1u << 5,	/* leaf 1's cables to spine 2 go to spine 1;
					 * director: edge 1's cables to director 1
					 * all on one line chip */
	FG_FAULT_CA_TO_CA = 1u << 6,	/* two extra CAs cabled to each other */
	/* director: edge 1's cables to the last director go to director 1 */
	FG_FAULT_PILED_ACROSS = 1u << 7,
	/* rails: server 1's HCAs of rails 1 and 2 swap leaves */
	FG_FAULT_SWAP_RAIL = 1u << 8,
	/* rails: server 1 has no HCA on the last rail */
	FG_FAULT_MISSING_RAIL = 1u << 9,
	/* Dragonfly+: no global link between groups 1 and 2 */
	FG_FAULT_MISSING_GLOBAL = 1u << 10,
};

struct fg_params {
	enum fg_shape shape;
	unsigned levels;	/* fat tree: 2 or 3 */
	unsigned pods;		/* 3 levels */
	unsigned leaves;	/* 2 levels: total; 3 levels: per pod */
	unsigned spines;	/* 2 levels: spines; 3 levels: aggs per pod */
	unsigned cores;		/* 3 levels: cores (a multiple of spines) */
	unsigned hosts;		/* per leaf (per switch for ring/mesh/grid) */
	unsigned links;		/* cables per leaf-spine pair; 0 = 1 */
	unsigned core_links;	/* cables per agg-core pair; 0 = 1 */
	bool dual_homed;	/* servers on two neighbouring leaves */
	unsigned switches;	/* ring, mesh, star (spokes) */
	unsigned rows, cols;	/* grid, torus */
	unsigned faults;	/* enum fg_fault */
	unsigned speed;		/* 0 = HDR */
	unsigned width;		/* 0 = 4x */
	unsigned host_speed;	/* 0 = speed */
	unsigned radix;		/* ports per switch; 0 = enough */
	/* director: `directors` chassis of `lines` line chips and `spines`
	 * fabric chips (each line chip cabled once to each fabric chip,
	 * all sharing a system image GUID), `leaves` edge switches with
	 * `hosts` servers, each edge cabled `links` times to every
	 * director, round robin over its first lines - idle line chips */
	unsigned directors;
	unsigned lines;
	unsigned idle;		/* line chips left without external cables */
	/* rails: `units` scalable units of `hosts` servers, each server an
	 * HCA "dgx0001 mlx5_<k>" per rail k on its unit's leaf of rail k;
	 * every leaf cabled `links` times to each of `spines` spines; with
	 * `cores`, 3 levels: `spines` per rail ("spine2-01"), a rail's
	 * leaves cabled to its spines, every spine `core_links` times to
	 * each core */
	unsigned rails;
	unsigned units;
	/* Dragonfly+: `groups` groups of `leaves` leaves (`hosts` each) and
	 * `spines` spines, each leaf cabled once to each spine of its group,
	 * every two groups joined by `global` links (0 = 1), group a's k-th
	 * global link on its spine k mod spines (as `plan dragonfly-plus`);
	 * DROP_UPLINK: g01-leaf01 loses its cable to g01-spine01 */
	unsigned groups;
	unsigned global;
};

/**
 * Build the fabric (nodes sorted as the readers leave them). Returns 0 or
 * a negative ibtopo status with err set (bad parameters: IBTOPO_EINVAL).
 */
int fg_build(struct ibtopo_fabric **out, const struct fg_params *p,
	     struct ibtopo_error *err);

/** The node named `name` (a switch, or a CA by its description), or NULL. */
struct ibtopo_node *fg_node(const struct ibtopo_fabric *f, const char *name);

#endif
