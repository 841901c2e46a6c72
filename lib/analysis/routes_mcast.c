/*
 * routes_mcast.c - multicast forwarding (the section "mcast"): for each
 * MLID, the tree its entries build and whether it reaches every member.
 *
 * A switch forwards a packet for an MLID out of every port of its mask but
 * the one it came in through, so a working group is a tree: the links on
 * which both ends forward (a switch with the port in its mask at each
 * end, or a switch and a CA port) join every receiver, and nothing else.
 * Per MLID, a union-find over those links gives the pieces:
 * - the piece with the most receivers is the tree; a receiver in another
 *   piece never hears the group (mcast-unreached);
 * - a link that joins a piece to itself closes a cycle: packets circle
 *   until dropped (mcast-loop, once a piece);
 * - a port of a mask whose far end does not forward back (no link, a
 *   switch without the MLID, or with it but not this link) loses what it
 *   sends, and a switch on the tree with one link and nothing to deliver
 *   forwards only back (mcast-dead-end);
 * - switches with an entry in a piece without a receiver are stale
 *   (mcast-disconnected, once a piece; their ports are not dead ends too).
 * The receivers are the SA's full and non members when the groups were
 * read; else every CA port (and switch, port 0) an entry delivers to.
 * ibdmchk checks the same from opensm.mcfdbs ("Found a loop on MLID",
 * "Disconnected switch", "Disconnected HCA").
 */
#include "analysis/analysis-int.h"
#include "findings/findings-int.h"

#include <stdlib.h>
#include <string.h>

struct mc {
	const struct ibtopo_fabric *f;
	size_t nnodes, nids;
	size_t *ca_base; /* CA node index -> first id of its ports */
	/* per id, valid when stamp[id] == round */
	size_t *parent, *recv, *deg;
	unsigned *stamp;
	unsigned round;
	bool *member;	 /* per id: an SA receiver of this MLID */
	size_t *touched; /* ids of this round */
	size_t ntouched;
	/* this MLID's receivers and switches */
	const struct ibtopo_port **rec;
	size_t nrec, arec;
	const struct ibtopo_node **sw;
	size_t nsw, asw;
	struct ibtopo_findings *found;
	struct ibtopo_mcast *res;
};

static size_t ca_id(const struct mc *m, const struct ibtopo_port *p)
{
	return m->ca_base[p->node->index] + p->num;
}

static size_t id_of(const struct mc *m, const struct ibtopo_port *p)
{
	return p->node->type == IBTOPO_NODE_SWITCH ? p->node->index :
						     ca_id(m, p);
}

static void touch(struct mc *m, size_t id)
{
	if (m->stamp[id] == m->round)
		return;
	m->stamp[id] = m->round;
	m->parent[id] = id;
	m->recv[id] = 0;
	m->deg[id] = 0;
	m->touched[m->ntouched++] = id;
}

static size_t root(struct mc *m, size_t id)
{
	while (m->parent[id] != id) {
		m->parent[id] = m->parent[m->parent[id]];
		id = m->parent[id];
	}
	return id;
}

static bool is_ipoib_broadcast(const uint8_t g[16])
{
	/* ff1x:401b:<pkey>:0000:0000:0000:ffff:ffff */
	return g[0] == 0xff && g[2] == 0x40 && g[3] == 0x1b && g[12] == 0xff &&
	       g[13] == 0xff && g[14] == 0xff && g[15] == 0xff;
}

/* A port of a mask whose far end does not forward back. */
struct dead {
	const struct ibtopo_port *port;
	int why;
};

struct mlid_pass {
	uint16_t mlid;
	const struct ibtopo_mcast_group *group; /* the SA's, or NULL */
	struct dead *dead;
	size_t ndead, adead;
	struct ibtopo_finding loop; /* the first cycle */
	size_t nloops;		    /* links that close a cycle */
};

static int add(struct mc *m, const struct mlid_pass *mp,
	       struct ibtopo_finding *f, struct ibtopo_error *err)
{
	const struct ibtopo_mcast_group *g = mp->group;

	f->num.mcast.mlid = mp->mlid;
	/* the SA's MGID says; without it, OpenSM gives the default
	 * partition's broadcast group the first MLID */
	if (f->kind == IBTOPO_FIND_MCAST_UNREACHED &&
	    (g ? is_ipoib_broadcast(g->mgid) : mp->mlid == IBTOPO_MLID_FIRST))
		f->subkind = 1;
	return m->found ? ibtopo_findings_add(m->found, f, err) : 0;
}

/* The group of `mlid` the SA knows, or NULL. */
static const struct ibtopo_mcast_group *group_of(const struct ibtopo_fabric *f,
						 uint16_t mlid)
{
	for (size_t i = 0; i < ibtopo_fabric_mcast_group_count(f); i++) {
		const struct ibtopo_mcast_group *g =
			ibtopo_fabric_mcast_group(f, i);

		if (g->mlid == mlid)
			return g;
	}
	return NULL;
}

static int receiver(struct mc *m, const struct ibtopo_port *p)
{
	if (ibtopo__grow(&m->rec, &m->arec, m->nrec + 1, sizeof(*m->rec)))
		return -1;
	m->rec[m->nrec++] = p;
	return 0;
}

static int dead_end(struct mlid_pass *mp, const struct ibtopo_port *p, int why)
{
	if (ibtopo__grow(&mp->dead, &mp->adead, mp->ndead + 1,
			 sizeof(*mp->dead)))
		return -1;
	mp->dead[mp->ndead++] = (struct dead){ p, why };
	return 0;
}

/* One link of a mask both ends forward on: a tree edge, or a cycle. */
static void edge(struct mc *m, struct mlid_pass *mp,
		 const struct ibtopo_port *sp, const struct ibtopo_port *q)
{
	size_t a = sp->node->index, b = id_of(m, q), ra, rb;

	m->deg[a]++;
	m->deg[b]++;
	ra = root(m, a);
	rb = root(m, b);
	if (ra != rb) {
		m->parent[rb] = ra;
		m->recv[ra] += m->recv[rb];
		return;
	}
	if (!mp->nloops++) {
		ibtopo__finding_init(&mp->loop, IBTOPO_FIND_MCAST_LOOP);
		ibtopo_end_from_port(&mp->loop.a, q);
		ibtopo_end_from_port(&mp->loop.b, sp);
	}
}

/* The far end of a mask port: 1 when it forwards back (an edge), 0 when
 * a dead end was noted, -1 out of memory. */
static int far_end(struct mc *m, struct mlid_pass *mp,
		   const struct ibtopo_port *sp)
{
	const struct ibtopo_port *q = sp->remote;
	const uint8_t *far;

	if (!q)
		return dead_end(mp, sp, IBTOPO_MCAST_NO_LINK) ? -1 : 0;
	if (q->node->type != IBTOPO_NODE_SWITCH) {
		size_t b = ca_id(m, q);

		if (m->stamp[b] != m->round) {
			touch(m, b);
			/* from the tables alone, whoever they deliver to */
			if (!ibtopo_fabric_mcast_groups_read(m->f)) {
				m->recv[b] = 1;
				if (receiver(m, q))
					return -1;
			}
		}
		return 1;
	}
	far = ibtopo_mft_mask(q->node->mft, mp->mlid);
	if (!far || !ibtopo_mft_has_port(far, q->node->mft->stride, q->num))
		return dead_end(mp, sp,
				far ? IBTOPO_MCAST_ONE_WAY :
				      IBTOPO_MCAST_NO_ENTRY) ?
			       -1 :
			       0;
	touch(m, q->node->index);
	return 1;
}

/* Switch s's mask for the MLID: its links, tree edges or dead ends. */
static int switch_links(struct mc *m, struct mlid_pass *mp,
			const struct ibtopo_node *s, const uint8_t *mask)
{
	unsigned stride = s->mft->stride;

	touch(m, s->index);
	if (ibtopo__grow(&m->sw, &m->asw, m->nsw + 1, sizeof(*m->sw)))
		return -1;
	m->sw[m->nsw++] = s;
	if (ibtopo_mft_has_port(mask, stride, 0) &&
	    !ibtopo_fabric_mcast_groups_read(m->f) && s->ports[0]) {
		m->recv[root(m, s->index)]++; /* the switch receives */
		if (receiver(m, s->ports[0]))
			return -1;
	}
	for (unsigned p = 1; p <= s->nports; p++) {
		const struct ibtopo_port *sp = s->ports[p], *q;
		int rc;

		if (!ibtopo_mft_has_port(mask, stride, p) || !sp)
			continue;
		rc = far_end(m, mp, sp);
		if (rc < 0)
			return -1;
		q = sp->remote;
		/* each switch-to-switch link once, from its lower end */
		if (rc &&
		    (q->node->type != IBTOPO_NODE_SWITCH ||
		     s->index < q->node->index || (q->node == s && p < q->num)))
			edge(m, mp, sp, q);
	}
	return 0;
}

/* The SA's receivers of the group, before the links. */
static int sa_receivers(struct mc *m, const struct ibtopo_mcast_group *g)
{
	for (size_t i = 0; g && i < g->nmembers; i++) {
		const struct ibtopo_mcast_member *mb = &g->members[i];
		const struct ibtopo_port *p;
		size_t id;

		if (!(mb->join_state & (IBTOPO_MCAST_FULL | IBTOPO_MCAST_NON)))
			continue;
		p = ibtopo_fabric_find_port((struct ibtopo_fabric *)m->f,
					    mb->port_guid);
		if (!p || p->node->type == IBTOPO_NODE_SWITCH || !p->remote)
			continue;
		id = ca_id(m, p);
		if (m->stamp[id] == m->round)
			continue;
		touch(m, id);
		m->recv[id] = 1;
		if (receiver(m, p))
			return -1;
	}
	return 0;
}

static bool in_list(const size_t *v, size_t n, size_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* Pieces of switches without a receiver: one finding each. */
static int disconnected(struct mc *m, struct mlid_pass *mp, size_t **stale,
			size_t *nstale, struct ibtopo_mcast_mlid *out,
			struct ibtopo_error *err)
{
	struct ibtopo_finding f;
	size_t a = 0;

	for (size_t i = 0; i < m->nsw; i++) {
		size_t r = root(m, m->sw[i]->index), n = 0;

		if (m->recv[r] || in_list(*stale, *nstale, r))
			continue;
		if (ibtopo__grow(stale, &a, *nstale + 1, sizeof(**stale)))
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
		(*stale)[(*nstale)++] = r;
		for (size_t k = i; k < m->nsw; k++)
			n += root(m, m->sw[k]->index) == r;
		ibtopo__finding_init(&f, IBTOPO_FIND_MCAST_DISCONNECTED);
		if (m->sw[i]->ports[0])
			ibtopo_end_from_port(&f.a, m->sw[i]->ports[0]);
		f.num.mcast.count = (double)n;
		out->disconnected++;
		if (add(m, mp, &f, err))
			return -1;
	}
	return 0;
}

/* Dead ends on the tree, and its switches that only send back (a piece
 * off the tree is its receivers' or its switches' finding already). */
static int dead_ends(struct mc *m, struct mlid_pass *mp, size_t main_root,
		     struct ibtopo_mcast_mlid *out, struct ibtopo_error *err)
{
	struct ibtopo_finding f;

	for (size_t i = 0; i < mp->ndead; i++) {
		const struct ibtopo_port *p = mp->dead[i].port;

		if (root(m, p->node->index) != main_root)
			continue;
		ibtopo__finding_init(&f, IBTOPO_FIND_MCAST_DEAD_END);
		ibtopo_end_from_port(&f.a, p);
		if (p->remote)
			ibtopo_end_from_port(&f.b, p->remote);
		f.subkind = mp->dead[i].why;
		out->dead_ends++;
		if (add(m, mp, &f, err))
			return -1;
	}
	for (size_t i = 0; i < m->nsw; i++) {
		const struct ibtopo_node *s = m->sw[i];
		const uint8_t *mask = ibtopo_mft_mask(s->mft, mp->mlid);
		bool has_dead = false;
		unsigned p = 1;

		for (size_t k = 0; k < mp->ndead; k++)
			has_dead |= mp->dead[k].port->node == s;
		/* with members cut off, a stub is the cut's, not a fault
		 * of its own */
		if (m->deg[s->index] != 1 || has_dead ||
		    out->reached < out->members ||
		    ibtopo_mft_has_port(mask, s->mft->stride, 0) ||
		    root(m, s->index) != main_root)
			continue;
		while (!ibtopo_mft_has_port(mask, s->mft->stride, p))
			p++;
		ibtopo__finding_init(&f, IBTOPO_FIND_MCAST_DEAD_END);
		ibtopo_end_from_port(&f.a, s->ports[p]);
		ibtopo_end_from_port(&f.b, s->ports[p]->remote);
		f.subkind = IBTOPO_MCAST_NO_WAY_ON;
		out->dead_ends++;
		if (add(m, mp, &f, err))
			return -1;
	}
	return 0;
}

/* After the links: the receivers off the tree, cycles, stale pieces. */
static int judge(struct mc *m, struct mlid_pass *mp,
		 struct ibtopo_mcast_mlid *out, struct ibtopo_error *err)
{
	size_t main_root = SIZE_MAX, best = 0, *stale = NULL, nstale = 0;
	struct ibtopo_finding f;
	int rc = 0;

	for (size_t k = 0; k < m->ntouched; k++) {
		size_t id = m->touched[k];

		if (root(m, id) == id && m->recv[id] > best) {
			best = m->recv[id];
			main_root = id;
		}
	}
	out->switches = m->nsw;
	out->members = m->nrec;
	out->reached = best;
	for (size_t i = 0; i < m->nrec && !rc && m->nrec > 1; i++) {
		const struct ibtopo_port *p = m->rec[i];

		if (root(m, id_of(m, p)) == main_root)
			continue;
		ibtopo__finding_init(&f, IBTOPO_FIND_MCAST_UNREACHED);
		ibtopo_end_from_port(&f.a, p);
		if (p->remote)
			ibtopo_end_from_port(&f.b, p->remote);
		f.num.mcast.count = (double)best;
		rc = add(m, mp, &f, err);
	}
	if (!rc && mp->nloops) {
		mp->loop.num.mcast.count = (double)mp->nloops;
		out->loops = 1;
		rc = add(m, mp, &mp->loop, err);
	}
	if (!rc)
		rc = disconnected(m, mp, &stale, &nstale, out, err);
	if (!rc)
		rc = dead_ends(m, mp, main_root, out, err);
	free(stale);
	return rc;
}

static int one_mlid(struct mc *m, uint16_t mlid, struct ibtopo_mcast_mlid *out,
		    struct ibtopo_error *err)
{
	struct mlid_pass mp = { .mlid = mlid };
	size_t nn = ibtopo_fabric_node_count(m->f);
	int rc = 0;

	m->round++;
	m->ntouched = m->nrec = m->nsw = 0;
	memset(out, 0, sizeof(*out));
	out->mlid = mlid;
	if (ibtopo_fabric_mcast_groups_read(m->f)) {
		mp.group = group_of(m->f, mlid);
		if (mp.group)
			out->mgid = m->res->mgids[mp.group -
						  ibtopo_fabric_mcast_group(
							  m->f, 0)];
		if (sa_receivers(m, mp.group))
			goto out_nomem;
	}
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *s = ibtopo_fabric_node(m->f, i);
		const uint8_t *mask;

		if (s->type != IBTOPO_NODE_SWITCH || !s->mft)
			continue;
		mask = ibtopo_mft_mask(s->mft, mlid);
		if (mask && switch_links(m, &mp, s, mask))
			goto out_nomem;
	}
	rc = judge(m, &mp, out, err);
	goto out_free;

out_nomem:
	rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
out_free:
	free(mp.dead);
	return rc;
}

static int cmp_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return (x > y) - (x < y);
}

/* Every MLID of a table or a group, ascending, once. */
static int collect_mlids(struct ibtopo_mcast *r, const struct ibtopo_fabric *f)
{
	size_t n = 0, a = 0, k = 0;
	uint16_t *v = NULL;

	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_mft *t = ibtopo_fabric_node(f, i)->mft;

		if (!t)
			continue;
		r->switches_with_tables++;
		if (ibtopo__grow(&v, &a, n + t->count, sizeof(*v)))
			goto out_nomem;
		memcpy(v + n, t->mlid, t->count * sizeof(*v));
		n += t->count;
	}
	for (size_t i = 0; i < ibtopo_fabric_mcast_group_count(f); i++) {
		if (ibtopo__grow(&v, &a, n + 1, sizeof(*v)))
			goto out_nomem;
		v[n++] = ibtopo_fabric_mcast_group(f, i)->mlid;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_u16);
	r->mlids = calloc(n ? n : 1, sizeof(*r->mlids));
	if (!r->mlids)
		goto out_nomem;
	for (size_t i = 0; i < n; i++)
		if ((!i || v[i] != v[i - 1]) && v[i] >= IBTOPO_MLID_FIRST)
			r->mlids[k++].mlid = v[i];
	r->nmlids = k;
	free(v);
	return 0;

out_nomem:
	free(v);
	return -1;
}

static int mc_init(struct mc *m, const struct ibtopo_fabric *f)
{
	size_t nn = ibtopo_fabric_node_count(f), ids = nn;

	m->f = f;
	m->nnodes = nn;
	m->ca_base = calloc(nn ? nn : 1, sizeof(*m->ca_base));
	if (!m->ca_base)
		return -1;
	for (size_t i = 0; i < nn; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		if (n->type == IBTOPO_NODE_SWITCH)
			continue;
		m->ca_base[i] = ids;
		ids += n->nports + 1;
	}
	m->nids = ids;
	m->parent = calloc(ids, sizeof(*m->parent));
	m->recv = calloc(ids, sizeof(*m->recv));
	m->deg = calloc(ids, sizeof(*m->deg));
	m->stamp = calloc(ids, sizeof(*m->stamp));
	m->touched = calloc(ids, sizeof(*m->touched));
	return m->parent && m->recv && m->deg && m->stamp && m->touched ? 0 :
									  -1;
}

static void mc_release(struct mc *m)
{
	free(m->ca_base);
	free(m->parent);
	free(m->recv);
	free(m->deg);
	free(m->stamp);
	free(m->touched);
	free(m->rec);
	free(m->sw);
}

static void count_findings(struct ibtopo_mcast *r,
			   const struct ibtopo_findings *fs, size_t first)
{
	for (size_t i = first; fs && i < fs->count; i++)
		switch (fs->items[i].kind) {
		case IBTOPO_FIND_MCAST_UNREACHED:
			r->unreached++;
			break;
		case IBTOPO_FIND_MCAST_LOOP:
			r->loops++;
			break;
		case IBTOPO_FIND_MCAST_DEAD_END:
			r->dead_ends++;
			break;
		case IBTOPO_FIND_MCAST_DISCONNECTED:
			r->disconnected++;
			break;
		default:
			break;
		}
}

int ibtopo_mcast_analyze(struct ibtopo_mcast **out,
			 const struct ibtopo_fabric *fabric,
			 struct ibtopo_findings *findings,
			 struct ibtopo_error *err)
{
	struct mc m = { 0 };
	struct ibtopo_mcast *r;
	size_t ng, first = findings ? findings->count : 0;
	int rc = 0;

	if (!out || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no output pointer or fabric");
	*out = NULL;
	ng = ibtopo_fabric_mcast_group_count(fabric);
	if (!ibtopo_fabric_has_mfts(fabric) && !ng)
		return 0;
	r = calloc(1, sizeof(*r));
	if (!r)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	r->fabric = fabric;
	r->groups_read = ibtopo_fabric_mcast_groups_read(fabric);
	r->groups = ng;
	r->mgids = calloc(ng ? ng : 1, sizeof(*r->mgids));
	if (!r->mgids || collect_mlids(r, fabric) || mc_init(&m, fabric)) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_release;
	}
	for (size_t i = 0; i < ng; i++)
		ibtopo_mgid_text(r->mgids[i], sizeof(r->mgids[i]),
				 ibtopo_fabric_mcast_group(fabric, i)->mgid);
	m.member = calloc(m.nids, sizeof(*m.member));
	if (!m.member) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_release;
	}
	m.found = findings;
	m.res = r;
	for (size_t i = 0; i < r->nmlids && !rc; i++)
		rc = one_mlid(&m, r->mlids[i].mlid, &r->mlids[i], err);
	count_findings(r, findings, first);

out_release:
	free(m.member);
	mc_release(&m);
	if (rc)
		ibtopo_mcast_free(r);
	else
		*out = r;
	return rc;
}

void ibtopo_mcast_free(struct ibtopo_mcast *mcast)
{
	if (!mcast)
		return;
	free(mcast->mlids);
	free(mcast->mgids);
	free(mcast);
}

/* ---- the section ---- */

static int run_mcast(struct ibtopo_analysis *an, struct ibtopo_findings *found,
		     struct ibtopo_error *err)
{
	return ibtopo_mcast_analyze(&an->mcast, an->fabric, found, err);
}

static void mcast_summary(char *buf, size_t len,
			  const struct ibtopo_analysis *an)
{
	if (!an->mcast)
		snprintf(buf, len, "no multicast tables or groups");
	else
		snprintf(buf, len, "%zu MLIDs, %zu findings", an->mcast->nmlids,
			 an->slots[IBTOPO__SECTION_MCAST].findings.count);
}

static void release_mcast(struct ibtopo_analysis *an)
{
	ibtopo_mcast_free(an->mcast);
	an->mcast = NULL;
}

const struct ibtopo__analysis ibtopo__analysis_mcast = {
	.name = "mcast",
	.skip = IBTOPO_ANALYZE_NO_ROUTES,
	.run = run_mcast,
	.summary = mcast_summary,
	.release = release_mcast,
};

IBTOPO__ACCESSOR(ibtopo_analysis_mcast, MCAST, const struct ibtopo_mcast,
		 an->mcast)
