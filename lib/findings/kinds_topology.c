/*
 * kinds_topology.c - the kinds the topology analysis produces
 * (analysis/topology.c, analysis/paths.c, analysis/topology_rails.c): low
 * path diversity, fat-tree violations and rail mismatches, with their
 * subkinds.
 */
#include "findings/findings-int.h"

static const char *lpd_subkind_name(int subkind)
{
	static const char *const names[] = {
		[IBTOPO_LPD_LEAF_PAIR] = "leaf-pair",
		[IBTOPO_LPD_SINGLE_LINK] = "single-link",
		[IBTOPO_LPD_ONE_SWITCH] = "one-switch",
		[IBTOPO_LPD_SINGLE_HOMED] = "single-homed",
	};

	if (subkind <= 0 || (size_t)subkind >= IBTOPO__ARRAY_SIZE(names))
		return NULL;
	return names[subkind];
}

static const char *ftv_subkind_name(int subkind)
{
	static const char *const names[] = {
		[IBTOPO_FTV_SAME_LEVEL] = "same-level-link",
		[IBTOPO_FTV_LEVEL_SKIP] = "level-skip",
		[IBTOPO_FTV_CA_ON_NON_LEAF] = "ca-on-non-leaf",
		[IBTOPO_FTV_UNEVEN_UPLINKS] = "uneven-uplinks",
		[IBTOPO_FTV_UPLINKS_PILED] = "uplinks-piled",
		[IBTOPO_FTV_CA_TO_CA] = "ca-to-ca",
	};

	if (subkind <= 0 || (size_t)subkind >= IBTOPO__ARRAY_SIZE(names))
		return NULL;
	return names[subkind];
}

static const char *rail_subkind_name(int subkind)
{
	static const char *const names[] = {
		[IBTOPO_RAIL_WRONG_LEAF] = "wrong-leaf",
		[IBTOPO_RAIL_MISSING] = "missing-rail",
		[IBTOPO_RAIL_UNEQUAL] = "unequal-rails",
	};

	if (subkind <= 0 || (size_t)subkind >= IBTOPO__ARRAY_SIZE(names))
		return NULL;
	return names[subkind];
}

static const char *dfp_subkind_name(int subkind)
{
	static const char *const names[] = {
		[IBTOPO_DFP_UNEQUAL_GROUP] = "unequal-group",
		[IBTOPO_DFP_MISSING_GLOBAL] = "missing-global-link",
		[IBTOPO_DFP_UNEVEN_GLOBAL] = "uneven-global-links",
	};

	if (subkind <= 0 || (size_t)subkind >= IBTOPO__ARRAY_SIZE(names))
		return NULL;
	return names[subkind];
}

const char *ibtopo_topology_subkind_name(enum ibtopo_finding_kind kind,
					 int subkind)
{
	if (kind == IBTOPO_FIND_DRAGONFLY_VIOLATION)
		return dfp_subkind_name(subkind);
	if (kind == IBTOPO_FIND_RAIL_MISMATCH)
		return rail_subkind_name(subkind);
	if (kind == IBTOPO_FIND_FAT_TREE_VIOLATION)
		return ftv_subkind_name(subkind);
	if (kind == IBTOPO_FIND_LOW_PATH_DIVERSITY)
		return lpd_subkind_name(subkind);
	return NULL;
}

static int lpd_sentence(char *buf, size_t len, const struct ibtopo_finding *f,
			const struct ibtopo__shared_names *names)
{
	const struct ibtopo_paths_detail *p = &f->num.paths;
	char n1[96];

	if (f->subkind == IBTOPO_LPD_SINGLE_LINK)
		return snprintf(buf, len,
			"server has a single link: cable a second port to another leaf switch so that one cable or switch cannot cut it off");
	if (f->subkind == IBTOPO_LPD_ONE_SWITCH)
		return snprintf(buf, len,
			"server's %g links all end on switch %s: move one to another leaf switch so that this switch cannot cut it off",
			p->links, ibtopo__sentence_end(names, &f->b, n1, sizeof(n1)));
	if (f->subkind == IBTOPO_LPD_SINGLE_HOMED)
		return snprintf(buf, len,
			"%g server%s single-homed (all links on one switch), as the fabric's server policy allows: one cable or switch can cut each off; analyze --servers dual reports each",
			p->servers, p->servers == 1 ? " is" : "s are");
	if (f->subkind == IBTOPO_LPD_LEAF_PAIR)
		return snprintf(buf, len,
			"leaf switch has only %u independent path%s to %s (fewer than %u), as to %g leaf switch%s in all: cable more uplinks, to more spines, so that no single cable or switch carries their traffic",
			p->paths, p->paths == 1 ? "" : "s",
			ibtopo__sentence_end(names, &f->b, n1, sizeof(n1)),
			p->min_paths, p->leaves, p->leaves == 1 ? "" : "es");
	return snprintf(buf, len,
		"only %u independent path%s between these ends, fewer than %u: add links so that no single cable or switch carries all their traffic",
		p->paths, p->paths == 1 ? "" : "s", p->min_paths);
}

const struct ibtopo__finding_kind ibtopo__kind_low_path_diversity = {
	.kind = IBTOPO_FIND_LOW_PATH_DIVERSITY,
	.name = "low-path-diversity",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = lpd_sentence,
	.subkind_name = lpd_subkind_name,
	.draw = IBTOPO__DRAW_LOW_PATHS,
	.family = IBTOPO__FAMILY_PATHS,
};

/* "4 hosts on 2 uplinks (2:1)": what a switch carries on what it has */
static void ratio_text(char *buf, size_t len, double down, unsigned up)
{
	char r[32];

	if (up)
		snprintf(r, sizeof(r), " (%.3g:1)", down / up);
	else
		r[0] = '\0';
	snprintf(buf, len, "%g host%s on %u uplink%s%s", down,
		 down == 1 ? "" : "s", up, up == 1 ? "" : "s", r);
}

static int uneven_uplinks_sentence(char *buf, size_t len,
				   const struct ibtopo_finding *f)
{
	const struct ibtopo_tree_detail *t = &f->num.tree;
	char own[96], usual[96];

	/* above the leaves (no host counts): uplinks only */
	if (t->hosts <= 0 && t->usual_hosts <= 0)
		return snprintf(buf, len,
			"switch has %u uplink%s where most of its level have %u: cable the missing uplinks",
			t->uplinks, t->uplinks == 1 ? "" : "s",
			t->usual_uplinks);
	ratio_text(own, sizeof(own), t->hosts, t->uplinks);
	ratio_text(usual, sizeof(usual), t->usual_hosts, t->usual_uplinks);
	if (f->severity == IBTOPO_SEV_INFO)
		return snprintf(buf, len,
			"switch has %u uplink%s where most of its level have %u, for fewer hosts: %s, no more oversubscribed than the usual leaf's %s; a design choice, nothing to cable unless it gets more hosts",
			t->uplinks, t->uplinks == 1 ? "" : "s",
			t->usual_uplinks, own, usual);
	return snprintf(buf, len,
		"switch has %u uplink%s where most of its level have %u: %s, more oversubscribed than the usual leaf's %s; cable the missing uplinks",
		t->uplinks, t->uplinks == 1 ? "" : "s", t->usual_uplinks, own,
		usual);
}

static int ftv_sentence(char *buf, size_t len, const struct ibtopo_finding *f,
			const struct ibtopo__shared_names *names)
{
	const struct ibtopo_tree_detail *t = &f->num.tree;
	char n1[96], n2[96];

	switch (f->subkind) {
	case IBTOPO_FTV_SAME_LEVEL:
		return snprintf(buf, len,
			"link joins two switches of level %u: fat-tree routing never uses it; recable it to a switch one level up",
			t->level_b);
	case IBTOPO_FTV_LEVEL_SKIP:
		return snprintf(buf, len,
			"link joins level %u to level %u, skipping a level: recable it to a switch of level %u",
			t->level_a, t->level_b, t->level_a + 1);
	case IBTOPO_FTV_CA_ON_NON_LEAF:
		return snprintf(buf, len,
			"server is cabled to a level-%u switch, not to a leaf: move it to a leaf switch (the subnet manager would rank that switch as a leaf)",
			t->level_b);
	case IBTOPO_FTV_UNEVEN_UPLINKS:
		return uneven_uplinks_sentence(buf, len, f);
	case IBTOPO_FTV_UPLINKS_PILED:
		/* a director counts as one upper switch: name it, not b */
		if (f->d.node)
			return snprintf(buf, len,
				"%u uplinks go to director '%s' (system image GUID 0x%016" PRIx64 ") and none to %s, where %u per upper switch is usual: move the extra cables to %s",
				t->uplinks, f->d.node, f->d.guid,
				ibtopo__sentence_end(names, &f->c, n2, sizeof(n2)),
				t->usual_uplinks, n2);
		return snprintf(buf, len,
			"%u uplinks go to %s and none to %s, where %u per upper switch is usual: move the extra cables to %s",
			t->uplinks, ibtopo__sentence_end(names, &f->b, n1, sizeof(n1)),
			ibtopo__sentence_end(names, &f->c, n2, sizeof(n2)),
			t->usual_uplinks, n2);
	case IBTOPO_FTV_CA_TO_CA:
		return snprintf(buf, len,
			"two CAs are cabled to each other, outside the switched fabric: cable each to a leaf switch");
	default:
		return snprintf(buf, len,
			"link breaks the fat-tree layout%s%s: recable it so that every link joins adjacent levels",
			f->note ? ": " : "", f->note ? f->note : "");
	}
}

const struct ibtopo__finding_kind ibtopo__kind_fat_tree_violation = {
	.kind = IBTOPO_FIND_FAT_TREE_VIOLATION,
	.name = "fat-tree-violation",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = ftv_sentence,
	.subkind_name = ftv_subkind_name,
	.draw = IBTOPO__DRAW_TOPOLOGY,
	.family = IBTOPO__FAMILY_TREE,
};

static int rail_sentence(char *buf, size_t len, const struct ibtopo_finding *f,
			 const struct ibtopo__shared_names *names)
{
	const struct ibtopo_rail_detail *r = &f->num.rail;
	char n1[96], n2[96];

	switch (f->subkind) {
	case IBTOPO_RAIL_WRONG_LEAF:
		return snprintf(buf, len,
			"HCA of rail %u is cabled to %s, a leaf of rail %u or of another unit: move the cable to %s, its rail's leaf",
			r->expected, ibtopo__sentence_end(names, &f->b, n1, sizeof(n1)),
			r->actual, ibtopo__sentence_end(names, &f->c, n2, sizeof(n2)));
	case IBTOPO_RAIL_MISSING:
		/* a (a leaf, port -1): the unit lacks the rail's leaf */
		if (f->a.port < 0)
			return snprintf(buf, len,
				"this leaf's scalable unit has no leaf of rail %u, so its %g server%s no HCA on that rail: add the leaf and cable the servers' HCAs of rail %u to it",
				r->expected, r->lacking,
				r->lacking == 1 ? " has" : "s have", r->expected);
		n2[0] = '\0';
		if (r->lacking > 1)
			snprintf(n2, sizeof(n2), " (and on %g other rail%s)",
				 r->lacking - 1, r->lacking == 2 ? "" : "s");
		if (!f->c.node && !f->c.guid)
			return snprintf(buf, len,
				"server has no HCA on rail %u%s, nor a scalable unit: cable its HCAs of every rail to the leaves of its unit",
				r->expected, n2);
		return snprintf(buf, len,
			"server has no HCA on rail %u%s: cable one to %s, so that its traffic on that rail does not cross the spines",
			r->expected, n2,
			ibtopo__sentence_end(names, &f->c, n1, sizeof(n1)));
	case IBTOPO_RAIL_UNEQUAL:
		return snprintf(buf, len,
			"rail %g has %u HCAs where the largest has %u: cable the servers' missing HCAs so that every rail carries as much",
			r->rail, r->actual, r->expected);
	default:
		return snprintf(buf, len,
			"an HCA is not on its rail's leaf: cable it to the leaf of its rail");
	}
}

const struct ibtopo__finding_kind ibtopo__kind_rail_mismatch = {
	.kind = IBTOPO_FIND_RAIL_MISMATCH,
	.name = "rail-mismatch",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = rail_sentence,
	.subkind_name = rail_subkind_name,
	.draw = IBTOPO__DRAW_TOPOLOGY,
	/* the rail expected; the rest is in the message */
	.family = IBTOPO__FAMILY_RAIL,
};

static int dfp_sentence(char *buf, size_t len, const struct ibtopo_finding *f,
			const struct ibtopo__shared_names *names)
{
	const struct ibtopo_dragonfly_detail *g = &f->num.dragonfly;
	char n1[96], n2[96];

	switch (f->subkind) {
	case IBTOPO_DFP_UNEQUAL_GROUP:
		return snprintf(buf, len,
			"this switch's group has %u leaf switch%s, %g spine%s and %g server link%s, unlike most groups (%u leaf switch%s): build every group alike so that traffic spreads evenly",
			g->count, g->count == 1 ? "" : "es", g->spines,
			g->spines == 1 ? "" : "s", g->servers, g->servers == 1 ? "" : "s",
			g->usual, g->usual == 1 ? "" : "es");
	case IBTOPO_DFP_MISSING_GLOBAL:
		ibtopo__sentence_end(names, &f->a, n1, sizeof(n1));
		ibtopo__sentence_end(names, &f->b, n2, sizeof(n2));
		if (!g->count)
			return snprintf(buf, len,
				"no global link joins group %g to group %g, where most pairs of groups have %u: cable a global link between %s and %s",
				g->group_a, g->group_b, g->usual, n1, n2);
		return snprintf(buf, len,
			"group %g and group %g have %u global link%s where most pairs of groups have %u: cable a global link between %s and %s",
			g->group_a, g->group_b, g->count, g->count == 1 ? "" : "s",
			g->usual, n1, n2);
	case IBTOPO_DFP_UNEVEN_GLOBAL:
		return snprintf(buf, len,
			"spine has %u global link%s where most spines have %u: cable the missing global links",
			g->count, g->count == 1 ? "" : "s", g->usual);
	default:
		return snprintf(buf, len,
			"the fabric breaks the Dragonfly+ layout: give every group the same shape and link every pair of groups");
	}
}

const struct ibtopo__finding_kind ibtopo__kind_dragonfly_violation = {
	.kind = IBTOPO_FIND_DRAGONFLY_VIOLATION,
	.name = "dragonfly-violation",
	.severity = IBTOPO_SEV_WARNING,
	.sentence = dfp_sentence,
	.subkind_name = dfp_subkind_name,
	.draw = IBTOPO__DRAW_TOPOLOGY,
	.family = IBTOPO__FAMILY_DRAGONFLY,
};
