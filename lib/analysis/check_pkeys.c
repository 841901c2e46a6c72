/*
 * check_pkeys.c - partitions, from the PKeyTables a live sweep read, as
 * ibdiagnet checks them (ibutils' CheckPartitions, and its report of
 * each partition's full and limited members):
 * - a host port's PKey that its switch port, enforcing partitions, lacks
 *   (the switch drops those packets) or holds only as a limited member
 *   while the host is a full one (pkey-switch-drop);
 * - a partition without a full member: a limited member talks only to
 *   full members, so in the default partition nobody reaches the SM's
 *   SA, and in another none of its members reaches another
 *   (pkey-no-full-member); the master SM's port not a full member of the
 *   default partition (the SM is known from SMInfo). An SM on a switch
 *   is a full member the sweep does not see (switch port 0's table is
 *   not read): then the default partition is not checked;
 * - one PKey held as a full member by some hosts of a leaf and as a
 *   limited one by others (pkey-membership-mixed): the smaller group is
 *   named, one finding per host port.
 * A host is a CA port whose table was read; its leaf is its port's peer
 * switch. Nothing is found without tables (files, older snapshots).
 */
#include "analysis/analysis-int.h"
#include "findings/findings-int.h"

#include <stdlib.h>

/* Member and full-member counts of one partition (a PKey's low bits). */
struct tally {
	size_t members, full;
	const struct ibtopo_port *first, *second; /* two members, in order */
	const struct ibtopo_port *first_full;
};

static bool is_host(const struct ibtopo_port *p)
{
	return p && p->pkeys && p->node->type != IBTOPO_NODE_SWITCH;
}

/* The host port's keys against its enforcing switch port's. */
static int switch_drop(struct ibtopo_findings *out, const struct ibtopo_port *p,
		       struct ibtopo_error *err)
{
	const struct ibtopo_port *sw = p->remote;
	struct ibtopo_finding f;
	int rc = 0;

	if (!sw || !sw->pkeys || !sw->pkeys->enforce ||
	    sw->node->type != IBTOPO_NODE_SWITCH)
		return 0;
	for (size_t i = 0; i < p->pkeys->count && !rc; i++) {
		unsigned k = p->pkeys->keys[i];
		int have = ibtopo_port_pkey_member(sw, k);

		if (have == 2 || (have == 1 && !(k & IBTOPO_PKEY_FULL)))
			continue;
		ibtopo__finding_init(&f, IBTOPO_FIND_PKEY_SWITCH_DROP);
		ibtopo_end_from_port(&f.a, p);
		ibtopo_end_from_port(&f.b, sw);
		f.subkind = have ? IBTOPO_PKEY_DROP_LIMITED :
				   IBTOPO_PKEY_DROP_MISSING;
		if (have)
			f.severity = IBTOPO_SEV_WARNING;
		f.num.pkey.pkey = k;
		rc = ibtopo_findings_add(out, &f, err);
	}
	return rc;
}

/* Every host port, in node and port order. */
static const struct ibtopo_port **hosts(const struct ibtopo_fabric *fabric,
					size_t *n)
{
	size_t nn = ibtopo_fabric_node_count(fabric), k = 0, alloc = 0;
	const struct ibtopo_port **v = NULL;

	*n = 0;
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(fabric, i);

		for (unsigned j = 1; j <= node->nports; j++) {
			if (!is_host(node->ports[j]))
				continue;
			if (ibtopo__grow(&v, &alloc, k + 1, sizeof(*v))) {
				free(v);
				return NULL;
			}
			v[k++] = node->ports[j];
		}
	}
	*n = k;
	return v ? v : calloc(1, sizeof(*v));
}

/* The partitions the hosts hold, and how many are full members. */
static void tally(struct tally *t, const struct ibtopo_port *const *v, size_t n,
		  unsigned base)
{
	*t = (struct tally){ 0 };
	for (size_t i = 0; i < n; i++) {
		int m = ibtopo_port_pkey_member(v[i], base);

		if (!m)
			continue;
		if (!t->members++)
			t->first = v[i];
		else if (t->members == 2)
			t->second = v[i];
		if (m == 2 && !t->full++)
			t->first_full = v[i];
	}
}

/*
 * The one master SM a sweep found: *out its port when that is a host
 * port whose table was read, else NULL; false when there is no one
 * master.
 */
static bool master_port(const struct ibtopo_port **out,
			const struct ibtopo_fabric *fabric)
{
	size_t n = ibtopo_fabric_sm_count(fabric), masters = 0;
	const struct ibtopo_port *found = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct ibtopo_sm *sm = ibtopo_fabric_sm(fabric, i);
		const struct ibtopo_node *node;

		if (!sm->answered || sm->state != IBTOPO_SM_MASTER)
			continue;
		masters++;
		node = ibtopo_fabric_find_node(fabric, sm->node_guid);
		found = node ? ibtopo_node_port(node, sm->port) : NULL;
	}
	*out = masters == 1 && is_host(found) ? found : NULL;
	return masters == 1;
}

static int no_full(struct ibtopo_findings *out,
		   const struct ibtopo_fabric *fabric,
		   const struct ibtopo_port *const *v, size_t n,
		   const uint8_t *seen, struct ibtopo_error *err)
{
	const struct ibtopo_port *sm;
	/* an SM on a switch: its port 0's table is not read */
	bool sm_unseen = master_port(&sm, fabric) && !sm;
	struct ibtopo_finding f;
	struct tally t;
	int rc = 0;

	for (unsigned base = 1; base <= IBTOPO_PKEY_BASE && !rc; base++) {
		if (!seen[base])
			continue;
		tally(&t, v, n, base);
		ibtopo__finding_init(&f, IBTOPO_FIND_PKEY_NO_FULL_MEMBER);
		f.num.pkey.pkey = base;
		f.num.pkey.ports = (unsigned)t.members;
		if (base == IBTOPO_PKEY_DEFAULT && !t.full && !sm_unseen) {
			f.subkind = IBTOPO_PKEY_NOFULL_DEFAULT;
			ibtopo_end_from_port(&f.a, sm ? sm : t.first);
		} else if (base == IBTOPO_PKEY_DEFAULT && sm &&
			   ibtopo_port_pkey_member(sm, base) != 2) {
			f.subkind = IBTOPO_PKEY_NOFULL_SM;
			ibtopo_end_from_port(&f.a, sm);
		} else if (base != IBTOPO_PKEY_DEFAULT && !t.full &&
			   t.members > 1) {
			f.subkind = IBTOPO_PKEY_NOFULL_PARTITION;
			ibtopo_end_from_port(&f.a, t.first);
			ibtopo_end_from_port(&f.b, t.second);
		} else {
			continue;
		}
		rc = ibtopo_findings_add(out, &f, err);
	}
	return rc;
}

/* The hosts of one leaf (v[i..j)) that hold `base` the other way. */
static int mixed_leaf(struct ibtopo_findings *out,
		      const struct ibtopo_port *const *v, size_t i, size_t j,
		      unsigned base, struct ibtopo_error *err)
{
	struct ibtopo_finding f;
	struct tally t;
	bool flag_limited;
	int rc = 0;

	tally(&t, v + i, j - i, base);
	if (!t.full || t.full == t.members)
		return 0;
	/* the smaller group; on a tie, the limited members */
	flag_limited = t.full >= t.members - t.full;
	for (size_t k = i; k < j && !rc; k++) {
		int m = ibtopo_port_pkey_member(v[k], base);
		const struct ibtopo_port *other = NULL;

		if (!m || (m == 1) != flag_limited)
			continue;
		for (size_t o = i; o < j && !other; o++)
			if (ibtopo_port_pkey_member(v[o], base) ==
			    (flag_limited ? 2 : 1))
				other = v[o];
		ibtopo__finding_init(&f, IBTOPO_FIND_PKEY_MEMBERSHIP_MIXED);
		ibtopo_end_from_port(&f.a, v[k]);
		ibtopo_end_from_port(&f.b, other);
		f.c = (struct ibtopo_end){ v[k]->remote->node->desc,
					   v[k]->remote->node->guid, -1 };
		f.subkind = flag_limited ? IBTOPO_PKEY_MIXED_LIMITED :
					   IBTOPO_PKEY_MIXED_FULL;
		f.num.pkey.pkey = base;
		f.num.pkey.ports =
			(unsigned)(flag_limited ? t.full : t.members - t.full);
		f.num.pkey.own_ports =
			(unsigned)(flag_limited ? t.members - t.full : t.full);
		rc = ibtopo_findings_add(out, &f, err);
	}
	return rc;
}

static int leaf_cmp(const void *x, const void *y)
{
	const struct ibtopo_port *a = *(const struct ibtopo_port *const *)x;
	const struct ibtopo_port *b = *(const struct ibtopo_port *const *)y;
	size_t la = a->remote->node->index, lb = b->remote->node->index;

	if (la != lb)
		return la < lb ? -1 : 1;
	if (a->node->index != b->node->index)
		return a->node->index < b->node->index ? -1 : 1;
	return a->num < b->num ? -1 : a->num > b->num;
}

static int mixed(struct ibtopo_findings *out,
		 const struct ibtopo_port *const *all, size_t n,
		 struct ibtopo_error *err)
{
	const struct ibtopo_port **v = calloc(n ? n : 1, sizeof(*v));
	size_t k = 0;
	int rc = 0;

	if (!v)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (all[i]->remote &&
		    all[i]->remote->node->type == IBTOPO_NODE_SWITCH)
			v[k++] = all[i];
	if (k > 1)
		qsort(v, k, sizeof(*v), leaf_cmp);
	for (size_t i = 0, j; i < k && !rc; i = j) {
		for (j = i + 1;
		     j < k && v[j]->remote->node == v[i]->remote->node; j++)
			;
		/* each partition once per leaf, in the order hosts hold it */
		for (size_t h = i; h < j && !rc; h++)
			for (size_t e = 0; e < v[h]->pkeys->count && !rc; e++) {
				unsigned base =
					v[h]->pkeys->keys[e] & IBTOPO_PKEY_BASE;
				bool earlier = false;

				for (size_t g = i; g < h && !earlier; g++)
					earlier = ibtopo_port_pkey_member(
							  v[g], base) != 0;
				if (!earlier)
					rc = mixed_leaf(out, v, i, j, base,
							err);
			}
	}
	free(v);
	return rc;
}

int ibtopo__check_pkeys(struct ibtopo_findings *out,
			const struct ibtopo_fabric *fabric,
			struct ibtopo_error *err)
{
	size_t n;
	const struct ibtopo_port **v = hosts(fabric, &n);
	uint8_t *seen = calloc(IBTOPO_PKEY_BASE + 1, 1);
	int rc = 0;

	if (!v || !seen) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		for (size_t e = 0; e < v[i]->pkeys->count; e++)
			seen[v[i]->pkeys->keys[e] & IBTOPO_PKEY_BASE] = 1;
		rc = switch_drop(out, v[i], err);
	}
	if (!rc && n)
		rc = no_full(out, fabric, v, n, seen, err);
	if (!rc && n)
		rc = mixed(out, v, n, err);
out_free:
	free(seen);
	free(v);
	return rc;
}
