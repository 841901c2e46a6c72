/*
 * fabric.c - the in-memory model: nodes, ports, links, and their GUID
 * indexes. Every reader produces one, every analysis consumes one.
 * libosmcomp's cl_qmap (a red-black tree keyed by 64-bit GUIDs) is the
 * index; it enters the project through this file only.
 */
#include "model/model-int.h"

#include <complib/cl_qmap.h>

#include <stdlib.h>
#include <string.h>

struct node_entry {
	cl_map_item_t item;	/* keyed by node GUID */
	struct ibtopo_node node;
};

struct port_entry {
	cl_map_item_t item;	/* keyed by port GUID once indexed */
	struct ibtopo_port port;
};

struct ibtopo_fabric {
	struct ibtopo_fabric_meta meta;
	struct ibtopo_node **nodes;
	size_t nnodes, anodes;
	struct ibtopo_link **links;
	size_t nlinks, alinks;
	cl_qmap_t node_index;
	cl_qmap_t port_index;
	char *routing_engine;	/* NULL = not known */
	char **strings;		/* fabric-owned strings (cables) */
	size_t nstrings, astrings;
	struct ibtopo_guid_clash *clashes;	/* node GUIDs two nodes use */
	size_t nclashes, aclashes;
	struct ibtopo_sm *sms;			/* subnet managers */
	size_t nsms, asms;
	bool sms_read;				/* looked for */
	struct ibtopo__mcast_groups mcast;	/* multicast groups (mcast.c) */
	void *aux;				/* ibtopo__fabric_set_aux() */
	void (*aux_free)(void *aux);
};

int ibtopo_fabric_new(struct ibtopo_fabric **out, struct ibtopo_error *err)
{
	struct ibtopo_fabric *f;

	if (!out)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no output pointer");
	*out = NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	cl_qmap_init(&f->node_index);
	cl_qmap_init(&f->port_index);
	*out = f;
	return 0;
}

static void free_node(struct ibtopo_node *n)
{
	struct node_entry *e;

	for (unsigned i = 0; i <= n->nports; i++) {
		if (n->ports[i]) {
			struct port_entry *pe = (struct port_entry *)
				((char *)n->ports[i] - offsetof(struct port_entry, port));
			free(pe->port.counters);
			ibtopo__pkeys_free(pe->port.pkeys);
			free(pe);
		}
	}
	free(n->ports);
	free(n->desc);
	if (n->lft)
		free(n->lft->port);
	free(n->lft);
	ibtopo__mft_free(n->mft);
	e = (struct node_entry *)((char *)n - offsetof(struct node_entry, node));
	free(e);
}

void ibtopo_fabric_free(struct ibtopo_fabric *fabric)
{
	if (!fabric)
		return;
	for (size_t i = 0; i < fabric->nlinks; i++) {
		free(fabric->links[i]->cable);
		free(fabric->links[i]);
	}
	free(fabric->links);
	for (size_t i = 0; i < fabric->nnodes; i++)
		free_node(fabric->nodes[i]);
	free(fabric->nodes);
	for (size_t i = 0; i < fabric->nstrings; i++)
		free(fabric->strings[i]);
	free(fabric->strings);
	free(fabric->meta.label);
	free(fabric->meta.source);
	free(fabric->meta.host);
	free(fabric->meta.partial_reason);
	free(fabric->meta.fabric);
	free(fabric->meta.local_ca);
	free(fabric->routing_engine);
	free(fabric->clashes);
	free(fabric->sms);
	ibtopo__mcast_groups_release(&fabric->mcast);
	ibtopo__fabric_set_aux(fabric, NULL, NULL);
	free(fabric);
}

void ibtopo__fabric_set_aux(struct ibtopo_fabric *fabric, void *aux,
			    void (*aux_free)(void *aux))
{
	if (fabric->aux_free)
		fabric->aux_free(fabric->aux);
	fabric->aux = aux;
	fabric->aux_free = aux_free;
}

void *ibtopo__fabric_aux(const struct ibtopo_fabric *fabric)
{
	return fabric->aux;
}

size_t ibtopo__fabric_cable_count(const struct ibtopo_fabric *fabric)
{
	size_t n = 0;

	for (size_t i = 0; i < fabric->nlinks; i++)
		if (fabric->links[i]->cable)
			n++;
	return n;
}

char *ibtopo__fabric_strdup(struct ibtopo_fabric *fabric, const char *s)
{
	char *copy;

	if (!s)
		return NULL;
	if (ibtopo__grow(&fabric->strings, &fabric->astrings,
			 fabric->nstrings + 1, sizeof(*fabric->strings)))
		return NULL;
	copy = strdup(s);
	if (copy)
		fabric->strings[fabric->nstrings++] = copy;
	return copy;
}

const struct ibtopo_fabric_meta *ibtopo_fabric_meta(const struct ibtopo_fabric *fabric)
{
	return &fabric->meta;
}

static int set_string(char **slot, const char *value, struct ibtopo_error *err)
{
	char *copy = NULL;

	if (value) {
		copy = strdup(value);
		if (!copy)
			return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	free(*slot);
	*slot = copy;
	return 0;
}

int ibtopo_fabric_set_label(struct ibtopo_fabric *fabric, const char *label,
			    struct ibtopo_error *err)
{
	return set_string(&fabric->meta.label, label, err);
}

int ibtopo_fabric_set_source(struct ibtopo_fabric *fabric, const char *source,
			     struct ibtopo_error *err)
{
	return set_string(&fabric->meta.source, source, err);
}

int ibtopo_fabric_set_host(struct ibtopo_fabric *fabric, const char *host,
			   struct ibtopo_error *err)
{
	return set_string(&fabric->meta.host, host, err);
}

void ibtopo_fabric_set_taken_at(struct ibtopo_fabric *fabric, time_t when)
{
	fabric->meta.taken_at = when;
}

void ibtopo_fabric_set_partial(struct ibtopo_fabric *fabric, bool partial)
{
	fabric->meta.partial = partial;
}

int ibtopo_fabric_set_partial_reason(struct ibtopo_fabric *fabric,
				     const char *reason, struct ibtopo_error *err)
{
	return set_string(&fabric->meta.partial_reason, reason, err);
}

const char *ibtopo_fabric_routing_engine(const struct ibtopo_fabric *fabric)
{
	return fabric->routing_engine;
}

int ibtopo_fabric_set_routing_engine(struct ibtopo_fabric *fabric,
				     const char *engine,
				     struct ibtopo_error *err)
{
	return set_string(&fabric->routing_engine, engine, err);
}

int ibtopo_fabric_add_guid_clash(struct ibtopo_fabric *fabric,
				 const struct ibtopo_guid_clash *clash,
				 struct ibtopo_error *err)
{
	if (!fabric || !clash)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric or clash");
	for (size_t i = 0; i < fabric->nclashes; i++) {
		const struct ibtopo_guid_clash *c = &fabric->clashes[i];

		/* one record per port: a switch's clash shows on many */
		if (c->guid == clash->guid && c->port == clash->port)
			return 0;
	}
	if (ibtopo__grow(&fabric->clashes, &fabric->aclashes,
			 fabric->nclashes + 1, sizeof(*fabric->clashes)))
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	fabric->clashes[fabric->nclashes++] = *clash;
	return 0;
}

int ibtopo__fabric_port_clash(struct ibtopo_fabric *fabric,
			      const struct ibtopo_port *p,
			      const struct ibtopo_port *other,
			      struct ibtopo_error *err)
{
	struct ibtopo_guid_clash c = { .guid = p->node->guid, .port = p->num };

	if (p->remote) {
		c.peer_guid[0] = p->remote->node->guid;
		c.peer_port[0] = p->remote->num;
	}
	if (other) {
		c.peer_guid[1] = other->node->guid;
		c.peer_port[1] = other->num;
	}
	return ibtopo_fabric_add_guid_clash(fabric, &c, err);
}

int ibtopo_node_set_firmware(struct ibtopo_fabric *fabric,
			     struct ibtopo_node *node, unsigned major,
			     unsigned minor, unsigned subminor,
			     const char *psid, struct ibtopo_error *err)
{
	if (!fabric || !node)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric or node");
	node->fw_major = (uint16_t)major;
	node->fw_minor = (uint16_t)minor;
	node->fw_subminor = (uint16_t)subminor;
	node->psid = NULL;
	if (psid) {
		node->psid = ibtopo__fabric_strdup(fabric, psid);
		if (!node->psid)
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
	}
	return 0;
}

int ibtopo_fabric_add_sm(struct ibtopo_fabric *fabric,
			 const struct ibtopo_sm *sm, struct ibtopo_error *err)
{
	if (!fabric || !sm)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric or SM");
	if (ibtopo__grow(&fabric->sms, &fabric->asms, fabric->nsms + 1,
			 sizeof(*fabric->sms)))
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	fabric->sms[fabric->nsms++] = *sm;
	return 0;
}

size_t ibtopo_fabric_sm_count(const struct ibtopo_fabric *fabric)
{
	return fabric ? fabric->nsms : 0;
}

const struct ibtopo_sm *ibtopo_fabric_sm(const struct ibtopo_fabric *fabric,
					 size_t i)
{
	return fabric && i < fabric->nsms ? &fabric->sms[i] : NULL;
}

void ibtopo_fabric_set_sms_read(struct ibtopo_fabric *fabric, bool read)
{
	fabric->sms_read = read;
}

bool ibtopo_fabric_sms_read(const struct ibtopo_fabric *fabric)
{
	return fabric && fabric->sms_read;
}

size_t ibtopo_fabric_guid_clash_count(const struct ibtopo_fabric *fabric)
{
	return fabric ? fabric->nclashes : 0;
}

const struct ibtopo_guid_clash *
ibtopo_fabric_guid_clash(const struct ibtopo_fabric *fabric, size_t i)
{
	return fabric && i < fabric->nclashes ? &fabric->clashes[i] : NULL;
}

void ibtopo_fabric_set_snapshot_id(struct ibtopo_fabric *fabric, int64_t id)
{
	fabric->meta.snapshot_id = id;
}

int ibtopo_fabric_set_fabric_name(struct ibtopo_fabric *fabric,
				  const char *name, struct ibtopo_error *err)
{
	return set_string(&fabric->meta.fabric, name, err);
}

/* the store names a new fabric so (store_fabrics.c) */
const char *ibtopo_fabric_default_name(char *buf, size_t len,
				       const struct ibtopo_fabric *fabric)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(fabric);
	bool sw = ibtopo_fabric_count_type(fabric, IBTOPO_NODE_SWITCH) > 0;
	size_t nn = ibtopo_fabric_node_count(fabric);
	uint64_t low = UINT64_MAX, prefix = m->subnet_prefix;
	char pfx[24] = "fabric";
	int shift = 0;

	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(fabric, i);

		if ((!sw || n->type == IBTOPO_NODE_SWITCH) && n->guid < low)
			low = n->guid;
	}
	if (prefix) {
		while (shift < 48 && !((prefix >> shift) & 0xffff))
			shift += 16;
		snprintf(pfx, sizeof(pfx), "%" PRIx64, prefix >> shift);
	}
	if (low == UINT64_MAX)
		snprintf(buf, len, "%s", pfx);
	else
		snprintf(buf, len, "%s-%016" PRIx64, pfx, low);
	return buf;
}

void ibtopo_fabric_set_subnet(struct ibtopo_fabric *fabric, uint64_t prefix,
			      uint16_t sm_lid, uint64_t sm_guid)
{
	fabric->meta.subnet_prefix = prefix;
	fabric->meta.sm_lid = sm_lid;
	fabric->meta.sm_guid = sm_guid;
}

int ibtopo_fabric_set_local_port(struct ibtopo_fabric *fabric, const char *ca,
				 unsigned port, struct ibtopo_error *err)
{
	fabric->meta.local_port = port;
	return set_string(&fabric->meta.local_ca, ca, err);
}

int ibtopo_fabric_add_node(struct ibtopo_node **out, struct ibtopo_fabric *fabric,
			   enum ibtopo_node_type type, uint64_t guid,
			   unsigned nports, const char *desc,
			   struct ibtopo_error *err)
{
	struct node_entry *e;
	cl_map_item_t *old;
	int rc = 0;

	if (out)
		*out = NULL;
	if (!fabric || nports > 255)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "bad node (port count %u)", nports);
	if (cl_qmap_get(&fabric->node_index, guid) !=
	    cl_qmap_end(&fabric->node_index))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "duplicate node guid 0x%016" PRIx64, guid);
	if (ibtopo__grow(&fabric->nodes, &fabric->anodes, fabric->nnodes + 1,
			 sizeof(*fabric->nodes)))
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	e = calloc(1, sizeof(*e));
	if (!e)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	e->node.type = type;
	e->node.guid = guid;
	e->node.nports = nports;
	e->node.ports = calloc(nports + 1, sizeof(*e->node.ports));
	e->node.desc = strdup(desc ? desc : "");
	if (!e->node.ports || !e->node.desc) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free_entry;
	}
	old = cl_qmap_insert(&fabric->node_index, guid, &e->item);
	if (old != &e->item) {
		rc = ibtopo__error_set(err, IBTOPO_ERROR, "node index corrupt");
		goto out_free_entry;
	}
	e->node.index = fabric->nnodes;
	fabric->nodes[fabric->nnodes++] = &e->node;
	if (out)
		*out = &e->node;
	return 0;

out_free_entry:
	free(e->node.desc);
	free(e->node.ports);
	free(e);
	return rc;
}

int ibtopo_node_set_desc(struct ibtopo_node *node, const char *desc,
			 struct ibtopo_error *err)
{
	char *copy = strdup(desc ? desc : "");

	if (!copy)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	free(node->desc);
	node->desc = copy;
	return 0;
}

int ibtopo_node_add_port(struct ibtopo_port **out, struct ibtopo_fabric *fabric,
			 struct ibtopo_node *node, unsigned num,
			 struct ibtopo_error *err)
{
	struct port_entry *e;

	(void)fabric;
	if (out)
		*out = NULL;
	if (!node || num > node->nports)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "port %u out of range (node has %u ports)",
					 num, node ? node->nports : 0);
	if (!node->ports[num]) {
		e = calloc(1, sizeof(*e));
		if (!e)
			return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		e->port.node = node;
		e->port.num = num;
		node->ports[num] = &e->port;
	}
	if (out)
		*out = node->ports[num];
	return 0;
}

int ibtopo_fabric_index_port(struct ibtopo_fabric *fabric, struct ibtopo_port *port,
			     struct ibtopo_error *err)
{
	struct port_entry *e;

	if (!fabric || !port)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no port to index");
	if (!port->guid)
		return 0;
	e = (struct port_entry *)((char *)port - offsetof(struct port_entry, port));
	/* Switch ports share one GUID: the first port indexed stands for all. */
	if (cl_qmap_get(&fabric->port_index, port->guid) ==
	    cl_qmap_end(&fabric->port_index))
		cl_qmap_insert(&fabric->port_index, port->guid, &e->item);
	return 0;
}

static bool link_end_less(const struct ibtopo_port *x, const struct ibtopo_port *y)
{
	if (x->node->guid != y->node->guid)
		return x->node->guid < y->node->guid;
	return x->num < y->num;
}

int ibtopo_fabric_connect(struct ibtopo_link **out, struct ibtopo_fabric *fabric,
			  struct ibtopo_port *a, struct ibtopo_port *b,
			  struct ibtopo_error *err)
{
	struct ibtopo_link *l;

	if (out)
		*out = NULL;
	if (!fabric || !a || !b || a == b)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "bad link ends");
	if (a->link || b->link) {
		if (a->link && a->link == b->link) {
			if (out)
				*out = a->link;
			return 0;
		}
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"port %u of '%s' already linked",
			a->link ? a->num : b->num,
			a->link ? a->node->desc : b->node->desc);
	}
	if (ibtopo__grow(&fabric->links, &fabric->alinks, fabric->nlinks + 1,
			 sizeof(*fabric->links)))
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	l = calloc(1, sizeof(*l));
	if (!l)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	if (link_end_less(b, a)) {
		struct ibtopo_port *t = a;

		a = b;
		b = t;
	}
	l->a = a;
	l->b = b;
	l->speed = a->speed_active ? a->speed_active : b->speed_active;
	l->width = a->width_active ? a->width_active : b->width_active;
	a->remote = b;
	b->remote = a;
	a->link = l;
	b->link = l;
	l->index = fabric->nlinks;
	fabric->links[fabric->nlinks++] = l;
	if (out)
		*out = l;
	return 0;
}

int ibtopo_link_set_cable(struct ibtopo_fabric *fabric, struct ibtopo_link *link,
			  const struct ibtopo_cable *cable, struct ibtopo_error *err)
{
	struct ibtopo_cable *c;

	if (!fabric || !link || !cable)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no cable");
	c = calloc(1, sizeof(*c));
	if (!c)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	*c = *cable;
	c->vendor = ibtopo__fabric_strdup(fabric, cable->vendor);
	c->part_number = ibtopo__fabric_strdup(fabric, cable->part_number);
	c->serial = ibtopo__fabric_strdup(fabric, cable->serial);
	if ((cable->vendor && !c->vendor) ||
	    (cable->part_number && !c->part_number) ||
	    (cable->serial && !c->serial)) {
		free(c);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	free(link->cable);
	link->cable = c;
	return 0;
}

size_t ibtopo_fabric_node_count(const struct ibtopo_fabric *fabric)
{
	return fabric ? fabric->nnodes : 0;
}

struct ibtopo_node *ibtopo_fabric_node(const struct ibtopo_fabric *fabric, size_t i)
{
	return fabric && i < fabric->nnodes ? fabric->nodes[i] : NULL;
}

size_t ibtopo_fabric_link_count(const struct ibtopo_fabric *fabric)
{
	return fabric ? fabric->nlinks : 0;
}

struct ibtopo_link *ibtopo_fabric_link(const struct ibtopo_fabric *fabric, size_t i)
{
	return fabric && i < fabric->nlinks ? fabric->links[i] : NULL;
}

size_t ibtopo_fabric_count_type(const struct ibtopo_fabric *fabric,
				enum ibtopo_node_type type)
{
	size_t n = 0;

	for (size_t i = 0; fabric && i < fabric->nnodes; i++)
		if (fabric->nodes[i]->type == type)
			n++;
	return n;
}

struct ibtopo_node *ibtopo_fabric_find_node(const struct ibtopo_fabric *fabric,
					    uint64_t guid)
{
	cl_map_item_t *it;

	if (!fabric)
		return NULL;
	it = cl_qmap_get(&fabric->node_index, guid);
	if (it == cl_qmap_end(&fabric->node_index))
		return NULL;
	return &((struct node_entry *)it)->node;
}

struct ibtopo_port *ibtopo_fabric_find_port(const struct ibtopo_fabric *fabric,
					    uint64_t guid)
{
	cl_map_item_t *it;

	if (!fabric)
		return NULL;
	it = cl_qmap_get(&fabric->port_index, guid);
	if (it == cl_qmap_end(&fabric->port_index))
		return NULL;
	return &((struct port_entry *)it)->port;
}

struct ibtopo_node *ibtopo_fabric_find_node_desc(const struct ibtopo_fabric *fabric,
						 const char *desc)
{
	for (size_t i = 0; fabric && desc && i < fabric->nnodes; i++)
		if (strcmp(fabric->nodes[i]->desc, desc) == 0)
			return fabric->nodes[i];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Names a person gives                                                */
/* ------------------------------------------------------------------ */

static int cmp_node_desc(const void *x, const void *y)
{
	const struct ibtopo_node *a = *(struct ibtopo_node *const *)x;
	const struct ibtopo_node *b = *(struct ibtopo_node *const *)y;
	int c = strcmp(a->desc, b->desc);

	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

int ibtopo__fabric_desc_index(struct ibtopo_node ***out, size_t *count,
			      const struct ibtopo_fabric *fabric)
{
	size_t n = fabric ? fabric->nnodes : 0;
	struct ibtopo_node **v = calloc(n ? n : 1, sizeof(*v));

	*out = NULL;
	*count = 0;
	if (!v)
		return IBTOPO_ENOMEM;
	if (n) {
		memcpy(v, fabric->nodes, n * sizeof(*v));
		qsort(v, n, sizeof(*v), cmp_node_desc);
	}
	*out = v;
	*count = n;
	return 0;
}

/* "0x" and 1..16 hex digits; with `bare`, also without "0x" and as an
 * ibnetdiscover id ("S-0008f10500200a2c"). */
static bool parse_guid_name(const char *s, bool bare, uint64_t *out)
{
	uint64_t v = 0;
	size_t k = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	else if (!bare)
		return false;
	else if (strchr("SsHhRr", s[0]) && s[0] && s[1] == '-')
		s += 2;
	for (; *s; s++, k++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return false;
		if (k == 16)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	if (!k)
		return false;
	*out = v;
	return true;
}

static bool type_taken(const struct ibtopo__node_lookup *how,
		       const struct ibtopo_node *n)
{
	return !how->types || (how->types & (1u << n->type));
}

#define LOOKUP_GUIDS_SHOWN 4

/* Collects the nodes a name fits: the first, the count, a few GUIDs. */
struct fits {
	struct ibtopo_node *first;
	size_t count;
	uint64_t guids[LOOKUP_GUIDS_SHOWN];
};

static void fits_add(struct fits *m, struct ibtopo_node *n)
{
	if (!m->count)
		m->first = n;
	if (m->count < LOOKUP_GUIDS_SHOWN)
		m->guids[m->count] = n->guid;
	m->count++;
}

static void fits_desc(struct fits *m, const struct ibtopo_fabric *f,
		      const char *name, const struct ibtopo__node_lookup *how)
{
	if (how->by_desc) {
		struct ibtopo_node key = { .desc = (char *)name };
		size_t lo = 0, hi = how->nby_desc;

		/* the first node with that description */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (strcmp(how->by_desc[mid]->desc, key.desc) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < how->nby_desc &&
		       strcmp(how->by_desc[lo]->desc, name) == 0; lo++)
			if (type_taken(how, how->by_desc[lo]))
				fits_add(m, how->by_desc[lo]);
		return;
	}
	for (size_t i = 0; i < f->nnodes; i++)
		if (type_taken(how, f->nodes[i]) &&
		    strcmp(f->nodes[i]->desc, name) == 0)
			fits_add(m, f->nodes[i]);
}

static void fits_alias(struct fits *m, const struct ibtopo_fabric *f,
		       const char *name, const struct ibtopo__node_lookup *how)
{
	char buf[256];

	for (size_t i = 0; i < f->nnodes; i++) {
		const char *a;

		if (!type_taken(how, f->nodes[i]))
			continue;
		a = how->alias(how->alias_arg, f->nodes[i], buf, sizeof(buf));
		if (a && strcmp(a, name) == 0)
			fits_add(m, f->nodes[i]);
	}
}

/* The node a GUID names: a node GUID, else a port GUID's node. */
static struct ibtopo_node *guid_node(const struct ibtopo_fabric *f,
				     uint64_t guid)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node(f, guid);
	struct ibtopo_port *p = n ? NULL : ibtopo_fabric_find_port(f, guid);

	return n ? n : p ? p->node : NULL;
}

/* A LID, 1 to 0xbfff in decimal. */
static bool parse_lid(const char *s, unsigned *out)
{
	unsigned long v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 0xbfff)
			return false;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	if (!v || v > 0xbfff)
		return false;
	*out = (unsigned)v;
	return true;
}

/* The nodes a port of which has `lid` in its LID/LMC range. */
static void fits_lid(struct fits *m, const struct ibtopo_fabric *f,
		     unsigned lid, const struct ibtopo__node_lookup *how)
{
	for (size_t i = 0; i < f->nnodes; i++) {
		const struct ibtopo_node *n = f->nodes[i];
		bool hit = false;

		for (unsigned k = 0; k <= n->nports && !hit; k++) {
			const struct ibtopo_port *p = n->ports[k];

			hit = p && p->lid && lid >= p->lid &&
			      lid < p->lid + (1u << (p->lmc & 7));
		}
		if (hit && type_taken(how, n))
			fits_add(m, f->nodes[i]);
	}
}

/* The names ibtopo prints besides descriptions: a switch's short name
 * ("ib1" of "MF0;ib1:SX6036/U1"), a CA's host name ("host01"). */
static void fits_printed(struct fits *m, const struct ibtopo_fabric *f,
			 const char *name,
			 const struct ibtopo__node_lookup *how)
{
	char buf[256];

	for (size_t i = 0; i < f->nnodes; i++) {
		const struct ibtopo_node *n = f->nodes[i];
		const char *a =
			n->type == IBTOPO_NODE_CA ?
				ibtopo__ca_host_name(n, buf, sizeof(buf)) :
				ibtopo__node_short_name(n, buf, sizeof(buf));

		if (type_taken(how, n) && a && strcmp(a, name) == 0)
			fits_add(m, f->nodes[i]);
	}
}

/*
 * When no description fits: "lid:N", a plain number as a LID, a GUID
 * without "0x" or as an ibnetdiscover id (S-/H-/R-<hex>), then the
 * short and host names ibtopo prints.
 */
static void fits_other(struct fits *m, const struct ibtopo_fabric *f,
		       const char *name, const struct ibtopo__node_lookup *how)
{
	unsigned lid;
	uint64_t guid;
	struct ibtopo_node *n;

	if (strncmp(name, "lid:", 4) == 0) {
		if (parse_lid(name + 4, &lid))
			fits_lid(m, f, lid, how);
		return;
	}
	if (parse_lid(name, &lid))
		fits_lid(m, f, lid, how);
	/* bare hex only as ibtopo prints GUIDs: 16 digits, or S-/H-/R- */
	if (!m->count && (strlen(name) == 16 || strchr(name, '-')) &&
	    parse_guid_name(name, true, &guid)) {
		n = guid_node(f, guid);
		if (n && type_taken(how, n))
			fits_add(m, n);
	}
	if (!m->count)
		fits_printed(m, f, name, how);
}

int ibtopo__fabric_lookup(struct ibtopo_node **out,
			  const struct ibtopo_fabric *fabric, const char *name,
			  const struct ibtopo__node_lookup *how,
			  struct ibtopo_error *err)
{
	static const struct ibtopo__node_lookup any = { 0 };
	const char *what;
	struct fits m = { 0 };
	char q[IBTOPO__QUOTE_MAX], list[LOOKUP_GUIDS_SHOWN * 20 + 32];
	size_t used = 0;
	uint64_t guid;

	if (out)
		*out = NULL;
	if (!out || !fabric || !name)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no fabric or name");
	if (!how)
		how = &any;
	what = how->types == 1u << IBTOPO_NODE_SWITCH ? "switch" : "node";
	if (parse_guid_name(name, how->bare_guids, &guid)) {
		struct ibtopo_node *n = ibtopo_fabric_find_node(fabric, guid);
		struct ibtopo_port *p = ibtopo_fabric_find_port(fabric, guid);

		if (!n && p)
			n = p->node;
		if (n && type_taken(how, n)) {
			*out = n;
			return 0;
		}
		/* a description may look like a GUID: read on */
	}
	fits_desc(&m, fabric, name, how);
	if (!m.count && how->alias)
		fits_alias(&m, fabric, name, how);
	if (!m.count)
		fits_other(&m, fabric, name, how);
	ibtopo__quote(q, sizeof(q), name, strlen(name));
	if (!m.count)
		return ibtopo__error_set(err, IBTOPO_ENOTFOUND,
					 "no %s '%s' in the fabric", what, q);
	if (m.count == 1) {
		*out = m.first;
		return 0;
	}
	for (size_t i = 0; i < m.count && i < LOOKUP_GUIDS_SHOWN; i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s0x%016" PRIx64, i ? ", " : "",
					 m.guids[i]);
	if (m.count > LOOKUP_GUIDS_SHOWN)
		snprintf(list + used, sizeof(list) - used, " and %zu more",
			 m.count - LOOKUP_GUIDS_SHOWN);
	return ibtopo__error_set(err, IBTOPO_EAMBIGUOUS,
				 "'%s' names %zu %s%s: %s; name one by its GUID",
				 q, m.count, what,
				 strcmp(what, "switch") ? "s" : "es", list);
}

int ibtopo_fabric_find_node_name(struct ibtopo_node **out,
				 const struct ibtopo_fabric *fabric,
				 const char *name, struct ibtopo_error *err)
{
	return ibtopo__fabric_lookup(out, fabric, name, NULL, err);
}

/* ------------------------------------------------------------------ */
/* Names shared by several nodes                                       */
/* ------------------------------------------------------------------ */

struct named {
	char *name;
	uint64_t guid;
	bool taken;	/* the name moved to the shared names */
};

static int cmp_named(const void *x, const void *y)
{
	const struct named *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

static int named_add(struct named *v, size_t *n, const char *name, uint64_t guid)
{
	if (!name || !*name)
		return 0;
	v[*n].name = strdup(name);
	if (!v[*n].name)
		return IBTOPO_ENOMEM;
	v[*n].guid = guid;
	(*n)++;
	return 0;
}

int ibtopo__shared_names_init(struct ibtopo__shared_names *out,
			      const struct ibtopo_fabric *const *fabrics,
			      size_t nfabrics, const struct ibtopo_findings *list,
			      ibtopo__node_namer *namer, void *arg)
{
	size_t total = 0, n = 0;
	struct named *v;
	char buf[256];
	int rc = 0;

	out->names = NULL;
	out->n = 0;
	for (size_t k = 0; k < nfabrics; k++)
		total += fabrics[k] ? fabrics[k]->nnodes : 0;
	if (!namer && list)
		total += 4 * list->count;
	v = calloc(total + 1, sizeof(*v));
	out->names = calloc(total + 1, sizeof(*out->names));
	if (!v || !out->names) {
		rc = IBTOPO_ENOMEM;
		goto out_free;
	}
	for (size_t k = 0; k < nfabrics && !rc; k++) {
		for (size_t i = 0; fabrics[k] && i < fabrics[k]->nnodes && !rc; i++) {
			const struct ibtopo_node *node = fabrics[k]->nodes[i];

			rc = named_add(v, &n, namer ? namer(arg, node, buf, sizeof(buf)) :
				       node->desc, node->guid);
		}
	}
	for (size_t i = 0; !namer && list && i < list->count && !rc; i++) {
		const struct ibtopo_finding *f = &list->items[i];

		rc = named_add(v, &n, f->a.node, f->a.guid);
		if (!rc)
			rc = named_add(v, &n, f->b.node, f->b.guid);
		if (!rc)
			rc = named_add(v, &n, f->c.node, f->c.guid);
		if (!rc)
			rc = named_add(v, &n, f->d.node, f->d.guid);
	}
	if (rc)
		goto out_free;
	if (n)
		qsort(v, n, sizeof(*v), cmp_named);
	for (size_t i = 1; i < n; i++) {
		if (strcmp(v[i].name, v[i - 1].name) || v[i].guid == v[i - 1].guid)
			continue;
		if (out->n && strcmp(out->names[out->n - 1], v[i].name) == 0)
			continue;
		out->names[out->n++] = v[i].name;
		v[i].taken = true;
	}
out_free:
	for (size_t i = 0; v && i < n; i++)
		if (!v[i].taken)
			free(v[i].name);
	free(v);
	if (rc)
		ibtopo__shared_names_release(out);
	return rc;
}

void ibtopo__shared_names_release(struct ibtopo__shared_names *s)
{
	for (size_t i = 0; s && s->names && i < s->n; i++)
		free(s->names[i]);
	if (s) {
		free(s->names);
		s->names = NULL;
		s->n = 0;
	}
}

static int cmp_name_key(const void *key, const void *elem)
{
	return strcmp(key, *(char *const *)elem);
}

bool ibtopo__shared_names_has(const struct ibtopo__shared_names *s,
			      const char *name)
{
	return s && s->n && name &&
	       bsearch(name, s->names, s->n, sizeof(*s->names), cmp_name_key);
}

const char *ibtopo__name_node(const struct ibtopo__shared_names *s,
			      const char *name, uint64_t guid, char *buf,
			      size_t len)
{
	if (!name || !*name)
		snprintf(buf, len, "0x%016" PRIx64, guid);
	else if (guid && ibtopo__shared_names_has(s, name))
		snprintf(buf, len, "%s (0x%016" PRIx64 ")", name, guid);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

struct ibtopo_port *ibtopo_node_port(const struct ibtopo_node *node, unsigned num)
{
	if (!node || num > node->nports)
		return NULL;
	return node->ports[num];
}

static int type_rank(enum ibtopo_node_type t)
{
	switch (t) {
	case IBTOPO_NODE_SWITCH:
		return 0;
	case IBTOPO_NODE_CA:
		return 1;
	case IBTOPO_NODE_ROUTER:
		return 2;
	default:
		return 3;
	}
}

static int cmp_node(const void *x, const void *y)
{
	const struct ibtopo_node *a = *(struct ibtopo_node *const *)x;
	const struct ibtopo_node *b = *(struct ibtopo_node *const *)y;

	if (type_rank(a->type) != type_rank(b->type))
		return type_rank(a->type) - type_rank(b->type);
	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

static int cmp_link(const void *x, const void *y)
{
	const struct ibtopo_link *a = *(struct ibtopo_link *const *)x;
	const struct ibtopo_link *b = *(struct ibtopo_link *const *)y;

	if (a->a->node->guid != b->a->node->guid)
		return a->a->node->guid < b->a->node->guid ? -1 : 1;
	return (int)a->a->num - (int)b->a->num;
}

/*
 * Sort keys copied out of the structs, so that the sort compares flat
 * memory instead of chasing pointers (each of the 303,918 links of a
 * 101,306-host tree was a cache miss or two a comparison); the index
 * breaks ties, so the order is the stable sort's.
 */
struct sort_key {
	uint64_t major, minor;
	size_t index;
};

static int cmp_key(const void *x, const void *y)
{
	const struct sort_key *a = x, *b = y;

	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Put the n pointers of v[] in the order of their keys k[] (copied as
 * bytes: nodes and links alike); false without memory. */
static bool sort_keyed(void *v, struct sort_key *k, size_t n)
{
	const size_t w = sizeof(void *);
	char *copy = malloc(n * w), *b = v;

	if (!copy)
		return false;
	qsort(k, n, sizeof(*k), cmp_key);
	memcpy(copy, b, n * w);
	for (size_t i = 0; i < n; i++)
		memcpy(b + i * w, copy + k[i].index * w, w);
	free(copy);
	return true;
}

void ibtopo_fabric_sort(struct ibtopo_fabric *fabric)
{
	struct sort_key *k;
	size_t nn, nl;

	if (!fabric)
		return;
	nn = fabric->nnodes;
	nl = fabric->nlinks;
	k = malloc(((nn > nl ? nn : nl) + 1) * sizeof(*k));
	for (size_t i = 0; k && i < nn; i++)
		k[i] = (struct sort_key){ (uint64_t)type_rank(fabric->nodes[i]->type),
					  fabric->nodes[i]->guid, i };
	if (nn && (!k || !sort_keyed(fabric->nodes, k, nn)))
		qsort(fabric->nodes, nn, sizeof(*fabric->nodes), cmp_node);
	for (size_t i = 0; i < nn; i++)
		fabric->nodes[i]->index = i;
	for (size_t i = 0; k && i < nl; i++)
		k[i] = (struct sort_key){ fabric->links[i]->a->node->guid,
					  fabric->links[i]->a->num, i };
	if (nl && (!k || !sort_keyed(fabric->links, k, nl)))
		qsort(fabric->links, nl, sizeof(*fabric->links), cmp_link);
	for (size_t i = 0; i < nl; i++)
		fabric->links[i]->index = i;
	free(k);
}

struct ibtopo__mcast_groups *
ibtopo__fabric_mcast(const struct ibtopo_fabric *fabric)
{
	return (struct ibtopo__mcast_groups *)&fabric->mcast;
}

/* mcast.c fills these; they go with the fabric */
void ibtopo__mft_free(struct ibtopo_mft *mft)
{
	if (!mft)
		return;
	free(mft->mlid);
	free(mft->mask);
	free(mft);
}

void ibtopo__mcast_groups_release(struct ibtopo__mcast_groups *g)
{
	for (size_t i = 0; i < g->count; i++)
		free(g->group[i].members);
	free(g->group);
	memset(g, 0, sizeof(*g));
}
