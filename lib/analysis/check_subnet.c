/*
 * check_subnet.c - what the subnet manager's view of the fabric needs
 * unique, as ibdiagnet checks it: node GUIDs (a clash a reader or a sweep
 * recorded, since the model holds one node per GUID), port GUIDs, LIDs
 * (with their LMC ranges) and node descriptions; and what it configured
 * on each link: the MTU and the VLs both ends use.
 */
#include "analysis/analysis-int.h"
#include "findings/findings-int.h"

#include <stdlib.h>
#include <string.h>

/* A port that owns an address: its GUID, or its LID range. */
struct owner {
	uint64_t key; /* port GUID; or first LID << 16 | last LID */
	const struct ibtopo_port *port;
};

static int owner_cmp(const void *x, const void *y)
{
	const struct owner *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->port->node->index != b->port->node->index)
		return a->port->node->index < b->port->node->index ? -1 : 1;
	return a->port->num < b->port->num ? -1 : a->port->num > b->port->num;
}

/*
 * The ports that own a GUID or a LID: a switch's port 0 (its ports 1..N
 * carry port 0's GUID and LID; without port 0 in the data, its lowest
 * port that has one), each port of a CA or router.
 */
static const struct ibtopo_port *switch_port(const struct ibtopo_node *n,
					     bool lid)
{
	for (unsigned i = 0; i <= n->nports; i++) {
		const struct ibtopo_port *p = n->ports[i];

		if (p && (lid ? p->lid != 0 : p->guid != 0))
			return p;
	}
	return NULL;
}

static int collect(struct owner **out, size_t *count,
		   const struct ibtopo_fabric *fabric, bool lid,
		   struct ibtopo_error *err)
{
	size_t nn = ibtopo_fabric_node_count(fabric), n = 0, alloc = 0;
	struct owner *v = NULL;

	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(fabric, i);

		for (unsigned j = 0; j <= node->nports; j++) {
			const struct ibtopo_port *p = node->ports[j];

			if (node->type == IBTOPO_NODE_SWITCH)
				p = j ? NULL : switch_port(node, lid);
			if (!p || (lid ? !p->lid : !p->guid))
				continue;
			if (ibtopo__grow(&v, &alloc, n + 1, sizeof(*v))) {
				free(v);
				return ibtopo__error_set(err, IBTOPO_ENOMEM,
							 "out of memory");
			}
			v[n].port = p;
			if (!lid) {
				v[n++].key = p->guid;
				continue;
			}
			/* LMC 7 at most: the range stays below 1 << 16 */
			v[n++].key =
				(uint64_t)p->lid << 16 |
				(uint64_t)(p->lid + (1u << (p->lmc & 7)) - 1);
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), owner_cmp);
	*out = v;
	*count = n;
	return 0;
}

static int port_guids(struct ibtopo_findings *out,
		      const struct ibtopo_fabric *fabric,
		      struct ibtopo_error *err)
{
	struct ibtopo_finding f;
	struct owner *v;
	size_t n;
	int rc = collect(&v, &n, fabric, false, err);

	for (size_t i = 1; rc == 0 && i < n; i++) {
		/* two ports of one CA sharing a GUID are a clash too */
		if (v[i].key != v[i - 1].key)
			continue;
		ibtopo__finding_init(&f, IBTOPO_FIND_DUPLICATE_PORT_GUID);
		ibtopo_end_from_port(&f.a, v[i - 1].port);
		ibtopo_end_from_port(&f.b, v[i].port);
		/* the port GUID, for the sentence: not a JSON key */
		f.num.port_guid.guid = v[i].key;
		rc = ibtopo_findings_add(out, &f, err);
	}
	free(v);
	return rc;
}

static int lids(struct ibtopo_findings *out, const struct ibtopo_fabric *fabric,
		struct ibtopo_error *err)
{
	struct ibtopo_finding f;
	struct owner *v;
	size_t n, top = 0;
	int rc = collect(&v, &n, fabric, true, err);

	/* ranges sorted by first LID: one overlaps the widest before it */
	for (size_t i = 1; rc == 0 && i < n; i++) {
		unsigned first = (unsigned)(v[i].key >> 16);
		unsigned last = (unsigned)(v[top].key & 0xffff);

		if (first <= last) {
			ibtopo__finding_init(&f, IBTOPO_FIND_DUPLICATE_LID);
			ibtopo_end_from_port(&f.a, v[top].port);
			ibtopo_end_from_port(&f.b, v[i].port);
			f.num.lids.lid = first;
			f.num.lids.a_first = (unsigned)(v[top].key >> 16);
			f.num.lids.a_last = last;
			f.num.lids.b_last = (unsigned)(v[i].key & 0xffff);
			rc = ibtopo_findings_add(out, &f, err);
		}
		if ((v[i].key & 0xffff) > (v[top].key & 0xffff))
			top = i;
	}
	free(v);
	return rc;
}

static int desc_cmp(const void *x, const void *y)
{
	const struct ibtopo_node *a = *(const struct ibtopo_node *const *)x;
	const struct ibtopo_node *b = *(const struct ibtopo_node *const *)y;
	int c = strcmp(a->desc, b->desc);

	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

/*
 * Descriptions several nodes share. Empty ones and firmware defaults
 * ("MT4123 ConnectX6 Mellanox Technologies") name no node at all, and
 * are left out: many adapters share them before a host names them.
 */
static int descs(struct ibtopo_findings *out,
		 const struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	size_t nn = ibtopo_fabric_node_count(fabric), n = 0;
	const struct ibtopo_node **v = calloc(nn ? nn : 1, sizeof(*v));
	struct ibtopo_finding f;
	int rc = 0;

	if (!v)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(fabric, i);

		if (node->desc[0] && !ibtopo__desc_is_default(node->desc))
			v[n++] = node;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), desc_cmp);
	for (size_t i = 0, j; rc == 0 && i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(v[i]->desc, v[j]->desc); j++)
			;
		if (j - i < 2)
			continue;
		ibtopo__finding_init(&f, IBTOPO_FIND_DUPLICATE_NODE_DESC);
		f.a = (struct ibtopo_end){ v[i]->desc, v[i]->guid, -1 };
		f.b = (struct ibtopo_end){ v[i + 1]->desc, v[i + 1]->guid, -1 };
		f.num.nodes.nodes = (unsigned)(j - i);
		rc = ibtopo_findings_add(out, &f, err);
	}
	free(v);
	return rc;
}

static void clash_end(struct ibtopo_end *e, const struct ibtopo_fabric *fabric,
		      uint64_t guid, unsigned port)
{
	const struct ibtopo_node *n = ibtopo_fabric_find_node(fabric, guid);

	if (!guid)
		return;
	e->node = n ? n->desc : NULL;
	e->guid = guid;
	e->port = (int)port;
}

/* One finding per GUID: the first port two peers claim, if any. */
static int node_guids(struct ibtopo_findings *out,
		      const struct ibtopo_fabric *fabric,
		      struct ibtopo_error *err)
{
	size_t n = ibtopo_fabric_guid_clash_count(fabric);
	struct ibtopo_finding f;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < n; i++) {
		const struct ibtopo_guid_clash *c =
			ibtopo_fabric_guid_clash(fabric, i);
		const struct ibtopo_guid_clash *best = c;
		bool seen = false;

		for (size_t j = 0; j < n && !seen; j++) {
			const struct ibtopo_guid_clash *o =
				ibtopo_fabric_guid_clash(fabric, j);

			if (o->guid != c->guid)
				continue;
			if (j < i)
				seen = true;
			else if (!best->port && o->port)
				best = o;
		}
		if (seen)
			continue;
		ibtopo__finding_init(&f, IBTOPO_FIND_DUPLICATE_NODE_GUID);
		clash_end(&f.a, fabric, best->guid, best->port);
		if (!best->port)
			f.a.port = -1;
		clash_end(&f.b, fabric, best->peer_guid[0], best->peer_port[0]);
		clash_end(&f.c, fabric, best->peer_guid[1], best->peer_port[1]);
		rc = ibtopo_findings_add(out, &f, err);
	}
	return rc;
}

/* A node's firmware version as one number: major.minor.subminor. */
static uint64_t fw_version(const struct ibtopo_node *n)
{
	return (uint64_t)n->fw_major << 32 | (uint64_t)n->fw_minor << 16 |
	       n->fw_subminor;
}

/* Nodes of one model and PSID together, then by version. */
static int fw_cmp(const void *x, const void *y)
{
	const struct ibtopo_node *a = *(const struct ibtopo_node *const *)x;
	const struct ibtopo_node *b = *(const struct ibtopo_node *const *)y;
	int c;

	if (a->vendor_id != b->vendor_id)
		return a->vendor_id < b->vendor_id ? -1 : 1;
	if (a->device_id != b->device_id)
		return a->device_id < b->device_id ? -1 : 1;
	c = strcmp(a->psid, b->psid);
	if (c)
		return c;
	if (fw_version(a) != fw_version(b))
		return fw_version(a) < fw_version(b) ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static bool same_model(const struct ibtopo_node *a, const struct ibtopo_node *b)
{
	return a->vendor_id == b->vendor_id && a->device_id == b->device_id &&
	       !strcmp(a->psid, b->psid);
}

/*
 * Nodes of one model and PSID (v[i..j)) on several firmware versions:
 * each node off the most common one (the newest of a tie) is one finding.
 */
static int fw_group(struct ibtopo_findings *out, const struct ibtopo_node **v,
		    size_t i, size_t j, struct ibtopo_error *err)
{
	size_t best = i, bestn = 0, b0 = i, b1 = i;
	struct ibtopo_finding f;
	int rc = 0;

	for (size_t k = i, m; k < j; k = m) {
		for (m = k + 1; m < j && fw_version(v[m]) == fw_version(v[k]);
		     m++)
			;
		if (m - k >= bestn) {
			best = k;
			bestn = m - k;
		}
	}
	if (bestn == j - i)
		return 0;
	b0 = best;
	b1 = best + bestn;
	for (size_t k = i; rc == 0 && k < j; k++) {
		if (k >= b0 && k < b1)
			continue;
		ibtopo__finding_init(&f, IBTOPO_FIND_FIRMWARE_MISMATCH);
		f.a = (struct ibtopo_end){ v[k]->desc, v[k]->guid, -1 };
		f.b = (struct ibtopo_end){ v[b0]->desc, v[b0]->guid, -1 };
		f.num.firmware.version = fw_version(v[k]);
		f.num.firmware.usual_version = fw_version(v[b0]);
		f.num.firmware.model_nodes = (unsigned)(j - i);
		f.num.firmware.usual_nodes = (unsigned)bestn;
		f.vendor_id = v[k]->vendor_id;
		f.device_id = v[k]->device_id;
		f.note = v[k]->psid;
		rc = ibtopo_findings_add(out, &f, err);
	}
	return rc;
}

/* Firmware where an input carries it (ibdiagnet2.db_csv NODES_INFO). */
static int firmware(struct ibtopo_findings *out,
		    const struct ibtopo_fabric *fabric,
		    struct ibtopo_error *err)
{
	size_t nn = ibtopo_fabric_node_count(fabric), n = 0;
	const struct ibtopo_node **v = calloc(nn ? nn : 1, sizeof(*v));
	int rc = 0;

	if (!v)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *node = ibtopo_fabric_node(fabric, i);

		if (node->psid && fw_version(node))
			v[n++] = node;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), fw_cmp);
	for (size_t i = 0, j; rc == 0 && i < n; i = j) {
		for (j = i + 1; j < n && same_model(v[i], v[j]); j++)
			;
		rc = fw_group(out, v, i, j, err);
	}
	free(v);
	return rc;
}

/* An SM's port as a finding names it. */
static void sm_end(struct ibtopo_end *e, const struct ibtopo_fabric *fabric,
		   const struct ibtopo_sm *sm)
{
	clash_end(e, fabric, sm->node_guid, sm->port);
}

static bool any_active(const struct ibtopo_fabric *fabric)
{
	size_t n = ibtopo_fabric_link_count(fabric);

	for (size_t i = 0; i < n; i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(fabric, i);

		if (l->a->state == IBTOPO_PORT_STATE_ACTIVE ||
		    l->b->state == IBTOPO_PORT_STATE_ACTIVE)
			return true;
	}
	return false;
}

/*
 * The subnet managers a live sweep found: exactly one master, whose
 * ActCount grows between two reads, and no standby that outranks it (a standby of higher priority takes over at
 * its next sweep, or should have: OpenSM hands over, unless the master
 * was told to stay, -p and sm_sl aside).
 */
static int sms(struct ibtopo_findings *out, const struct ibtopo_fabric *fabric,
	       struct ibtopo_error *err)
{
	size_t n = ibtopo_fabric_sm_count(fabric), masters = 0;
	const struct ibtopo_sm *master = NULL, *second = NULL;
	struct ibtopo_finding f;
	int rc = 0;

	if (!ibtopo_fabric_sms_read(fabric))
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct ibtopo_sm *sm = ibtopo_fabric_sm(fabric, i);

		if (!sm->answered || sm->state != IBTOPO_SM_MASTER)
			continue;
		if (masters++ == 1)
			second = sm;
		else if (!master)
			master = sm;
	}
	/* nothing Active: port-not-active says no SM ever configured it */
	if (!masters && !n && !any_active(fabric))
		return 0;
	ibtopo__finding_init(&f, IBTOPO_FIND_SM_STATE);
	if (!masters) {
		f.subkind = IBTOPO_SM_NO_MASTER;
		f.num.sm.sms = (unsigned)n;
		return ibtopo_findings_add(out, &f, err);
	}
	if (masters > 1) {
		f.subkind = IBTOPO_SM_SEVERAL_MASTERS;
		f.num.sm.sms = (unsigned)masters;
		sm_end(&f.a, fabric, master);
		sm_end(&f.b, fabric, second);
		return ibtopo_findings_add(out, &f, err);
	}
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const struct ibtopo_sm *sm = ibtopo_fabric_sm(fabric, i);

		if (!sm->answered || sm->state != IBTOPO_SM_STANDBY ||
		    sm->priority <= master->priority)
			continue;
		ibtopo__finding_init(&f, IBTOPO_FIND_SM_STATE);
		f.severity = IBTOPO_SEV_WARNING;
		f.subkind = IBTOPO_SM_STANDBY_OUTRANKS;
		sm_end(&f.a, fabric, sm);
		sm_end(&f.b, fabric, master);
		f.num.sm.master_priority = master->priority;
		f.num.sm.priority = sm->priority;
		rc = ibtopo_findings_add(out, &f, err);
	}
	/* it answered the first read: that answer alone moves ActCount */
	if (!rc && master->reread && master->act_count2 == master->act_count) {
		ibtopo__finding_init(&f, IBTOPO_FIND_SM_STATE);
		f.subkind = IBTOPO_SM_MASTER_IDLE;
		sm_end(&f.a, fabric, master);
		f.num.sm.act_count = master->act_count;
		rc = ibtopo_findings_add(out, &f, err);
	}
	return rc;
}

int ibtopo__check_subnet(struct ibtopo_findings *out,
			 const struct ibtopo_fabric *fabric,
			 struct ibtopo_error *err)
{
	int rc = node_guids(out, fabric, err);

	if (!rc)
		rc = port_guids(out, fabric, err);
	if (!rc)
		rc = lids(out, fabric, err);
	if (!rc)
		rc = descs(out, fabric, err);
	if (!rc)
		rc = sms(out, fabric, err);
	if (!rc)
		rc = firmware(out, fabric, err);
	if (!rc)
		rc = ibtopo__check_pkeys(out, fabric, err);
	return rc;
}

/*
 * One setting of a link's two ends against the two capabilities: the
 * smaller capability is what both can use, what the subnet manager sets
 * at both ends. Above it at an end, that end sends what its peer cannot
 * take (subkind IBTOPO_LINK_CAP_ABOVE, an error); below it, or the two
 * ends differ, the link uses less than it could (a warning). Unknown
 * values (0: text dumps) are never a mismatch.
 */
static int link_cap(struct ibtopo_findings *out, const struct ibtopo_link *l,
		    enum ibtopo_finding_kind kind, unsigned cap_a,
		    unsigned cap_b, unsigned set_a, unsigned set_b,
		    struct ibtopo_error *err)
{
	unsigned both = cap_a < cap_b ? cap_a : cap_b;
	struct ibtopo_finding f;

	if (!cap_a || !cap_b || !set_a || !set_b ||
	    (set_a == both && set_b == both))
		return 0;
	ibtopo__finding_init_link(&f, kind, l);
	f.num.link_cap.cap = both;
	f.num.link_cap.set_a = set_a;
	f.num.link_cap.set_b = set_b;
	if (set_a > both || set_b > both) {
		f.subkind = IBTOPO_LINK_CAP_ABOVE;
	} else {
		f.subkind = IBTOPO_LINK_CAP_BELOW;
		f.severity = IBTOPO_SEV_WARNING;
	}
	return ibtopo_findings_add(out, &f, err);
}

int ibtopo__check_link_caps(struct ibtopo_findings *out,
			    const struct ibtopo_link *l,
			    struct ibtopo_error *err)
{
	int rc = link_cap(out, l, IBTOPO_FIND_MTU_MISMATCH, l->a->mtu_cap,
			  l->b->mtu_cap, l->a->neighbor_mtu, l->b->neighbor_mtu,
			  err);

	if (!rc)
		rc = link_cap(out, l, IBTOPO_FIND_VL_MISMATCH, l->a->vl_cap,
			      l->b->vl_cap, l->a->oper_vls, l->b->oper_vls,
			      err);
	return rc;
}
