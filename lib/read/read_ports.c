/*
 * read_ports.c - the `ibnetdiscover -p` ports report (with -v, DR-path
 * lines too).
 */
#include "read/read-int.h"

#include <stdlib.h>
#include <string.h>

/*
 * One line per port:
 *   CA  134  1 0x7cfe9003003b4bde 4x EDR - SW 1719 10 0x7cfe9003009ce5b0 ( 'a' - 'b' )
 *   SW 2052 37 0x506b4b03005c2740 4x ???                          'desc'
 * GUIDs are port GUIDs. A switch's ports share its node GUID; a CA's node
 * GUID is known only from the -v DR-path lines, else its port GUID stands
 * for it (a dual-port CA then shows as two nodes).
 */

struct pend_end {
	enum ibtopo_node_type type;
	unsigned lid, port;
	uint64_t pguid;
	char *desc;
};

struct pline {
	unsigned line;
	struct pend_end a, b;
	bool linked;
	bool mirrored;		/* the peer's line names this link too */
	unsigned width, speed;
	char *inner;		/* "a' - 'b" when the split was ambiguous */
};

struct pnode {
	uint64_t guid;
	enum ibtopo_node_type type;
	char *desc;
	unsigned line;		/* first line naming it */
	unsigned maxport;
	uint16_t lid;		/* switch: port 0 */
	struct ibtopo_node *node;
};

struct dr_edge {
	uint64_t from;		/* node GUID */
	unsigned port;
	uint64_t to;		/* node GUID */
	unsigned to_port;
	enum ibtopo_node_type to_type;	/* up edges: the CA's type */
	uint64_t claim;		/* up edges: the port GUID that took it */
};

struct ports {
	struct ibtopo__src *s;
	struct ibtopo__arena arena;
	struct pline *lines;
	size_t nlines, alines;
	struct pnode *nodes;
	size_t nnodes, anodes;
	struct ibtopo__imap node_idx;	/* node GUID -> pnode */
	struct dr_edge *edges;
	size_t nedges, aedges;
	struct ibtopo__imap edge_idx;	/* (from, port) -> edge */
	struct ibtopo__imap up_idx;	/* (switch, CA port) -> the CA it was reached from */
	struct ibtopo__imap path_idx;	/* DR path -> index into paths */
	char **paths;
	uint64_t *path_guid;
	enum ibtopo_node_type *path_type;	/* of the node at the path */
	unsigned *path_line;			/* the line that named it */
	size_t npaths, apaths, apath_guid, apath_type, apath_line;
	struct ibtopo_fabric *f;
};

static enum ibtopo_node_type ports_type(const char *p, size_t n)
{
	if (n == 2 && memcmp(p, "CA", 2) == 0)
		return IBTOPO_NODE_CA;
	if (n == 2 && memcmp(p, "SW", 2) == 0)
		return IBTOPO_NODE_SWITCH;
	if (n == 2 && memcmp(p, "RT", 2) == 0)
		return IBTOPO_NODE_ROUTER;
	return IBTOPO_NODE_UNKNOWN;
}

/* "SW  1719 10 0x7cfe9003009ce5b0": type lid port guid */
static bool ports_end(const char **pp, struct pend_end *e)
{
	const char *p = ibtopo__skip_ws(*pp);
	unsigned long v;

	e->type = ports_type(p, 2);
	if (e->type == IBTOPO_NODE_UNKNOWN || (p[2] != ' ' && p[2] != '\t'))
		return false;
	p = ibtopo__skip_ws(p + 2);
	if (!ibtopo__parse_uint(&p, 0xffff, &v))
		return false;
	e->lid = (unsigned)v;
	p = ibtopo__skip_ws(p);
	if (!ibtopo__parse_uint(&p, 255, &v))
		return false;
	e->port = (unsigned)v;
	p = ibtopo__skip_ws(p);
	if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X') ||
	    !ibtopo__parse_hex64(&p, &e->pguid))
		return false;
	*pp = p;
	return true;
}

static bool path_eq(const void *ctx, size_t i)
{
	const struct ports *r = ((const void *const *)ctx)[0];

	return strcmp(r->paths[i], ((const void *const *)ctx)[1]) == 0;
}

static uint64_t edge_key(uint64_t guid, unsigned port)
{
	return ibtopo__mix64(guid * 257 + port);
}

static int ports_add_edge(struct ports *r, uint64_t from, unsigned port,
			  uint64_t to, unsigned to_port)
{
	if (ibtopo__imap_find_u64(&r->edge_idx, edge_key(from, port)) != SIZE_MAX)
		return 0;
	if (ibtopo__grow(&r->edges, &r->aedges, r->nedges + 1, sizeof(*r->edges)))
		return IBTOPO_ENOMEM;
	r->edges[r->nedges] = (struct dr_edge){ from, port, to, to_port,
						 IBTOPO_NODE_UNKNOWN, 0 };
	if (ibtopo__imap_put(&r->edge_idx, edge_key(from, port), r->nedges))
		return IBTOPO_ENOMEM;
	r->nedges++;
	return 0;
}

/* DR path slid 0; dlid 0; 0,1,3 -> new Channel Adapter {f452140300135ae0} portnum 1 lid 0-0 "" */
static int ports_dr_line(struct ports *r, const char *p)
{
	struct ibtopo__src *s = r->s;
	const char *arrow, *path, *brace, *q;
	char key[IBTOPO__LINE_MAX + 1];
	uint64_t guid;
	unsigned long portnum;
	size_t plen, parent;
	const void *ctx[2];

	arrow = strstr(p, " -> ");
	path = arrow;
	while (path && path > p && path[-1] != ' ' && path[-1] != ';')
		path--;
	brace = arrow ? strchr(arrow, '{') : NULL;
	q = brace ? brace + 1 : NULL;
	if (!arrow || !q || !ibtopo__parse_hex64(&q, &guid) || *q != '}' || !guid)
		return ibtopo__src_error(s, s->lineno,
				 "malformed DR path line (expected '<path> -> ... {<guid>} portnum <n>')");
	q = strstr(q, "portnum ");
	if (!q)
		return ibtopo__src_error(s, s->lineno,
				 "malformed DR path line (expected 'portnum <n>')");
	q += 8;
	if (!ibtopo__parse_uint(&q, 255, &portnum))
		return ibtopo__src_error(s, s->lineno,
				 "malformed DR path line (expected a number after 'portnum')");
	plen = (size_t)(arrow - path);
	memcpy(key, path, plen);
	key[plen] = '\0';
	ctx[0] = r;
	ctx[1] = key;
	if (ibtopo__imap_find(&r->path_idx, ibtopo__str_key(key), path_eq, ctx) == SIZE_MAX) {
		if (ibtopo__grow(&r->paths, &r->apaths, r->npaths + 1,
			       sizeof(*r->paths)) ||
		    ibtopo__grow(&r->path_guid, &r->apath_guid, r->npaths + 1,
			       sizeof(*r->path_guid)) ||
		    ibtopo__grow(&r->path_type, &r->apath_type, r->npaths + 1,
			       sizeof(*r->path_type)) ||
		    ibtopo__grow(&r->path_line, &r->apath_line, r->npaths + 1,
			       sizeof(*r->path_line)))
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		r->path_type[r->npaths] =
			strstr(arrow, " Switch ") ? IBTOPO_NODE_SWITCH :
			strstr(arrow, " Router ") ? IBTOPO_NODE_ROUTER :
			IBTOPO_NODE_CA;
		r->path_line[r->npaths] = s->lineno;
		r->paths[r->npaths] = ibtopo__arena_strndup(&r->arena, key, plen);
		if (!r->paths[r->npaths] ||
		    ibtopo__imap_put(&r->path_idx, ibtopo__str_key(key), r->npaths))
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		r->path_guid[r->npaths++] = guid;
	}
	/* the node at the parent path, left through the last hop's port */
	q = strrchr(key, ',');
	if (!q)
		return 0;
	key[q - key] = '\0';
	parent = ibtopo__imap_find(&r->path_idx, ibtopo__str_key(key), path_eq, ctx);
	if (parent != SIZE_MAX) {
		const char *hop = q + 1;
		unsigned long out_port;

		if (!ibtopo__parse_uint(&hop, 255, &out_port))
			return ibtopo__src_error(s, s->lineno,
					 "malformed DR path line (bad path '%.*s')",
					 (int)plen, path);
		if (ports_add_edge(r, r->path_guid[parent], (unsigned)out_port,
				   guid, (unsigned)portnum) ||
		    ports_add_edge(r, guid, (unsigned)portnum,
				   r->path_guid[parent], (unsigned)out_port))
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		/*
		 * A switch reports no entry port ("portnum 0"), so the CA the
		 * walk started from is found by the switch and its own port.
		 */
		if (!portnum && r->path_type[parent] != IBTOPO_NODE_SWITCH &&
		    ibtopo__imap_find_u64(&r->up_idx, edge_key(guid, (unsigned)out_port)) ==
		    SIZE_MAX) {
			if (ibtopo__grow(&r->edges, &r->aedges, r->nedges + 1,
				       sizeof(*r->edges)) ||
			    ibtopo__imap_put(&r->up_idx, edge_key(guid, (unsigned)out_port),
				     r->nedges))
				return ibtopo__error_set(s->err, IBTOPO_ENOMEM,
							 "out of memory");
			r->edges[r->nedges++] = (struct dr_edge){
				guid, (unsigned)out_port, r->path_guid[parent],
				(unsigned)out_port, r->path_type[parent], 0 };
		}
	}
	return 0;
}

static int ports_port_line(struct ports *r, const char *p)
{
	struct ibtopo__src *s = r->s;
	struct pline l = { 0 };
	const char *e;
	size_t n;

	l.line = s->lineno;
	if (!ports_end(&p, &l.a))
		return ibtopo__src_error(s, s->lineno,
				 "malformed port line (expected '<CA|SW|RT> <lid> <port> 0x<guid>')");
	if (!l.a.pguid)
		return ibtopo__src_error(s, s->lineno,
				 "port GUID 0 (expected a non-zero GUID)");
	p = ibtopo__skip_ws(p);
	for (e = p; *e && *e != ' ' && *e != '\t'; e++)
		;
	if (!ibtopo__parse_width_text(p, (size_t)(e - p), &l.width))
		return ibtopo__src_error(s, s->lineno,
				 "malformed port line (expected a width such as '4x' after the GUID)");
	p = ibtopo__skip_ws(e);
	for (e = p; *e && *e != ' ' && *e != '\t'; e++)
		;
	if (!ibtopo__parse_speed_text(p, (size_t)(e - p), &l.speed))
		return ibtopo__src_error(s, s->lineno,
				 "malformed port line (expected a speed such as 'QDR' after the width)");
	p = ibtopo__skip_ws(e);
	n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (*p == '-') {
		const char *sep, *inner;
		size_t ilen;

		p++;
		if (!ports_end(&p, &l.b))
			return ibtopo__src_error(s, s->lineno,
					 "malformed port line (expected '- <CA|SW|RT> <lid> <port> 0x<guid>')");
		if (!l.b.pguid)
			return ibtopo__src_error(s, s->lineno,
					 "peer port GUID 0 (expected a non-zero GUID)");
		p = ibtopo__skip_ws(p);
		n = strlen(p);
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n < 6 || strncmp(p, "( '", 3) || strncmp(p + n - 3, "' )", 3))
			return ibtopo__src_error(s, s->lineno,
					 "malformed port line (expected \"( '<desc>' - '<desc>' )\")");
		inner = p + 3;
		ilen = n - 6;
		sep = NULL;
		for (size_t i = 0; i + 5 <= ilen; i++) {
			if (memcmp(inner + i, "' - '", 5) == 0) {
				if (sep) {
					l.inner = ibtopo__arena_strndup(&r->arena, inner, ilen);
					if (!l.inner)
						return IBTOPO_ENOMEM;
					break;
				}
				sep = inner + i;
			}
		}
		if (!sep)
			return ibtopo__src_error(s, s->lineno,
					 "malformed port line (expected \"'<desc>' - '<desc>'\" in the parentheses)");
		l.a.desc = ibtopo__arena_strndup(&r->arena, inner, (size_t)(sep - inner));
		l.b.desc = ibtopo__arena_strndup(&r->arena, sep + 5,
					 ilen - (size_t)(sep - inner) - 5);
		if (!l.a.desc || !l.b.desc)
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		l.linked = true;
	} else if (*p == '\'' && n >= 2 && p[n - 1] == '\'') {
		l.a.desc = ibtopo__arena_strndup(&r->arena, p + 1, n - 2);
		if (!l.a.desc)
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		/* a port with no peer: its active values mean nothing */
		l.width = l.speed = 0;
	} else {
		return ibtopo__src_error(s, s->lineno,
				 "malformed port line (expected \"- <peer>\" or \"'<desc>'\" after the speed)");
	}
	if (ibtopo__grow(&r->lines, &r->alines, r->nlines + 1, sizeof(*r->lines)))
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	r->lines[r->nlines++] = l;
	return 0;
}

static int ports_parse(struct ports *r)
{
	struct ibtopo__src *s = r->s;
	int rc;

	for (rc = ibtopo__src_next(s); rc > 0; rc = ibtopo__src_next(s)) {
		const char *p = ibtopo__skip_ws(s->line);

		if (*p == '\0' || *p == '#')
			continue;
		if (strncmp(p, "DR path ", 8) == 0)
			rc = ports_dr_line(r, p);
		else if (ports_type(p, 2) != IBTOPO_NODE_UNKNOWN &&
			 (p[2] == ' ' || p[2] == '\t'))
			rc = ports_port_line(r, p);
		else
			ibtopo__src_warn(s, "%s:%u: line ignored (not a port line)", s->name,
				 s->lineno);
		if (rc < 0)
			return rc;
	}
	if (rc < 0)
		return rc;
	if (!r->nlines)
		return ibtopo__src_error(s, s->lineno ? s->lineno : 1,
				 "no port lines (expected '<CA|SW|RT> <lid> <port> 0x<guid> ...')");
	return 0;
}

/*
 * A CA port's node GUID from the DR edges, else its port GUID. The CA the
 * walk started from has no edge into it (a switch reports no entry port):
 * the first port of its type on that switch, with that port number and
 * unexplained by another edge, takes it.
 */
static uint64_t ports_node_guid(struct ports *r, const struct pend_end *e,
				const struct pend_end *peer)
{
	struct dr_edge *up;
	size_t k;

	if (e->type == IBTOPO_NODE_SWITCH || !peer ||
	    peer->type != IBTOPO_NODE_SWITCH)
		return e->pguid;
	k = ibtopo__imap_find_u64(&r->edge_idx, edge_key(peer->pguid, peer->port));
	if (k != SIZE_MAX)
		return r->edges[k].to_port == e->port ? r->edges[k].to : e->pguid;
	k = ibtopo__imap_find_u64(&r->up_idx, edge_key(peer->pguid, e->port));
	if (k == SIZE_MAX)
		return e->pguid;
	up = &r->edges[k];
	if (up->to_type != e->type || (up->claim && up->claim != e->pguid))
		return e->pguid;
	up->claim = e->pguid;
	return up->to;
}

static int ports_note_node(struct ports *r, const struct pline *l,
			   const struct pend_end *e, uint64_t guid, size_t *out)
{
	struct ibtopo__src *s = r->s;
	size_t k = ibtopo__imap_find_u64(&r->node_idx, ibtopo__mix64(guid));
	struct pnode *n;

	if (k == SIZE_MAX) {
		if (ibtopo__grow(&r->nodes, &r->anodes, r->nnodes + 1,
			       sizeof(*r->nodes)) ||
		    ibtopo__imap_put(&r->node_idx, ibtopo__mix64(guid), r->nnodes))
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		k = r->nnodes++;
		r->nodes[k] = (struct pnode){ .guid = guid, .type = e->type,
					      .desc = e->desc, .line = l->line };
	}
	n = &r->nodes[k];
	if (n->type != e->type)
		return ibtopo__src_error(s, l->line,
				 "GUID 0x%016" PRIx64 " is a %s here, a %s at line %u",
				 guid, ibtopo__type_word(e->type), ibtopo__type_word(n->type), n->line);
	if (e->desc && !n->desc)
		n->desc = e->desc;
	else if (e->desc && strcmp(e->desc, n->desc))
		return ibtopo__src_error(s, l->line,
				 "GUID 0x%016" PRIx64 " is '%s' here, '%s' at line %u",
				 guid, e->desc, n->desc, n->line);
	if (e->port > n->maxport)
		n->maxport = e->port;
	if (e->type == IBTOPO_NODE_SWITCH && e->lid && !n->lid)
		n->lid = (uint16_t)e->lid;
	*out = k;
	return 0;
}

/* Pick the split of "a' - 'b" whose halves match descriptions seen elsewhere. */
static int ports_resolve_inner(struct ports *r, struct pline *l)
{
	size_t ilen = strlen(l->inner);
	size_t ka = ibtopo__imap_find_u64(&r->node_idx,
				  ibtopo__mix64(ports_node_guid(r, &l->a, &l->b)));
	size_t kb = ibtopo__imap_find_u64(&r->node_idx,
				  ibtopo__mix64(ports_node_guid(r, &l->b, &l->a)));
	const char *da = ka != SIZE_MAX ? r->nodes[ka].desc : NULL;
	const char *db = kb != SIZE_MAX ? r->nodes[kb].desc : NULL;

	for (size_t i = 0; i + 5 <= ilen; i++) {
		if (memcmp(l->inner + i, "' - '", 5))
			continue;
		if ((da && strlen(da) == i && memcmp(da, l->inner, i) == 0) ||
		    (db && strcmp(db, l->inner + i + 5) == 0)) {
			l->a.desc = ibtopo__arena_strndup(&r->arena, l->inner, i);
			l->b.desc = ibtopo__arena_strndup(&r->arena, l->inner + i + 5,
						  ilen - i - 5);
			if (!l->a.desc || !l->b.desc)
				return ibtopo__error_set(r->s->err, IBTOPO_ENOMEM,
							 "out of memory");
			break;
		}
	}
	return 0;
}

static void ports_warn_conflict(struct ports *r, const struct pline *x,
				const struct pline *y)
{
	struct ibtopo__src *s = r->s;

	ibtopo__src_warn(s, "%s:%u: port %u of '%s' says '%s'[%u], but %s:%u: port %u of '%s' says '%s'[%u]",
		 s->name, x->line, x->a.port, x->a.desc, x->b.desc, x->b.port,
		 s->name, y->line, y->a.port, y->a.desc, y->b.desc, y->b.port);
}

/* The nodes: unambiguous lines first, so ambiguous splits can use them. */
static int ports_collect_nodes(struct ports *r)
{
	int rc = 0;

	for (int pass = 0; pass < 2 && !rc; pass++) {
		for (size_t i = 0; i < r->nlines && !rc; i++) {
			struct pline *l = &r->lines[i];
			size_t ka, kb;

			if ((pass == 0) == (l->inner != NULL))
				continue;
			if (l->inner)
				rc = ports_resolve_inner(r, l);
			if (!rc)
				rc = ports_note_node(r, l, &l->a,
						     ports_node_guid(r, &l->a,
								     l->linked ? &l->b : NULL),
						     &ka);
			if (!rc && l->linked)
				rc = ports_note_node(r, l, &l->b,
						     ports_node_guid(r, &l->b, &l->a),
						     &kb);
		}
	}
	return rc;
}

static int ports_build(struct ports *r)
{
	struct ibtopo__src *s = r->s;
	struct ibtopo__imap link_line = { 0 };	/* port (guid, num) -> line index */
	int rc = 0;

	rc = ports_collect_nodes(r);
	if (rc)
		goto out;
	rc = ibtopo_fabric_new(&r->f, s->err);
	for (size_t i = 0; i < r->nnodes && !rc; i++) {
		struct pnode *n = &r->nodes[i];
		struct ibtopo_port *p0;

		rc = ibtopo_fabric_add_node(&n->node, r->f, n->type, n->guid,
					    n->maxport ? n->maxport : 1,
					    n->desc ? n->desc : "", s->err);
		if (!rc && n->type == IBTOPO_NODE_SWITCH && n->lid) {
			rc = ibtopo_node_add_port(&p0, r->f, n->node, 0, s->err);
			if (!rc) {
				p0->lid = n->lid;
				p0->guid = n->guid;
				rc = ibtopo_fabric_index_port(r->f, p0, s->err);
			}
		}
	}
	for (size_t i = 0; i < r->nlines && !rc; i++) {
		struct pline *l = &r->lines[i];
		struct pend_end *ends[2] = { &l->a, &l->b };
		struct ibtopo_port *ports[2] = { NULL, NULL };
		struct ibtopo_link *link;
		size_t k;

		for (int j = 0; j < (l->linked ? 2 : 1) && !rc; j++) {
			struct pend_end *e = ends[j];
			uint64_t g = ports_node_guid(r, e, l->linked ? ends[1 - j] : NULL);
			struct pnode *n = &r->nodes[ibtopo__imap_find_u64(&r->node_idx, ibtopo__mix64(g))];

			if (e->port == 0 || e->port > n->node->nports) {
				rc = ibtopo__src_error(s, l->line, "port %u out of range",
					       e->port);
				break;
			}
			rc = ibtopo_node_add_port(&ports[j], r->f, n->node, e->port,
						  s->err);
			if (rc)
				break;
			if (!ports[j]->guid) {
				ports[j]->guid = e->pguid;
				rc = ibtopo_fabric_index_port(r->f, ports[j], s->err);
			}
			if (n->type != IBTOPO_NODE_SWITCH && e->lid)
				ports[j]->lid = (uint16_t)e->lid;
		}
		if (rc || !l->linked)
			continue;
		if (ports[0] == ports[1]) {
			rc = ibtopo__src_error(s, l->line, "port %u linked to itself",
				       l->a.port);
			break;
		}
		if (ports[0]->remote == ports[1]) {
			link = ports[0]->link;
			k = ibtopo__imap_find_u64(&link_line,
					  edge_key(ports[0]->node->guid, ports[0]->num));
			r->lines[k].mirrored = l->mirrored = true;
			if ((l->speed && link->speed && l->speed != link->speed) ||
			    (l->width && link->width && l->width != link->width)) {
				char x[16], y[16];
				const struct pline *o = &r->lines[k];

				ibtopo__src_warn(s, "%s:%u: port %u of '%s' says %s, but %s:%u: port %u of '%s' says %s",
					 s->name, o->line, o->a.port, o->a.desc,
					 ibtopo__ws_text(link->width, link->speed, x, sizeof(x)),
					 s->name, l->line, l->a.port, l->a.desc,
					 ibtopo__ws_text(l->width, l->speed, y, sizeof(y)));
			}
			continue;
		}
		for (int j = 0; j < 2; j++) {
			if (!ports[j]->remote)
				continue;
			k = ibtopo__imap_find_u64(&link_line,
					  edge_key(ports[j]->node->guid, ports[j]->num));
			ports_warn_conflict(r, &r->lines[k], l);
			rc = ibtopo__fabric_port_clash(r->f, ports[j],
						       ports[1 - j], s->err);
			break;
		}
		if (rc)
			break;
		if (ports[0]->remote || ports[1]->remote)
			continue;
		ports[0]->speed_active = ports[1]->speed_active = (uint16_t)l->speed;
		ports[0]->width_active = ports[1]->width_active = (uint8_t)l->width;
		rc = ibtopo_fabric_connect(&link, r->f, ports[0], ports[1], s->err);
		for (int j = 0; j < 2 && !rc; j++)
			if (ibtopo__imap_put(&link_line,
				     edge_key(ports[j]->node->guid, ports[j]->num), i))
				rc = ibtopo__error_set(s->err, IBTOPO_ENOMEM,
						       "out of memory");
	}
out:
	ibtopo__imap_release(&link_line);
	return rc;
}

/*
 * The DR-path lines of a -v report name every node the sweep reached and
 * the port it left each one by. Port lines that do not cover them come
 * from a cut file (a copy stopped early, a full disk): reading what is
 * left would present a smaller fabric as this one.
 */
static int ports_check_complete(struct ports *r)
{
	struct ibtopo__src *s = r->s;
	struct ibtopo__imap seen = { 0 };
	size_t nodes = 0, missing = 0, first = SIZE_MAX;
	int rc = 0;

	if (!r->npaths)
		return 0;
	for (size_t i = 0; i < r->npaths; i++) {
		uint64_t key = ibtopo__mix64(r->path_guid[i]);

		if (ibtopo__imap_find_u64(&seen, key) != SIZE_MAX)
			continue;
		if (ibtopo__imap_put(&seen, key, i)) {
			ibtopo__imap_release(&seen);
			return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
		}
		nodes++;
		if (ibtopo__imap_find_u64(&r->node_idx, key) == SIZE_MAX &&
		    !missing++)
			first = i;
	}
	ibtopo__imap_release(&seen);
	if (missing)
		return ibtopo__src_error(s, r->path_line[first],
				 "incomplete report: DR path '%s' reached %s 0x%016" PRIx64
				 ", which no port line names (%zu of the %zu nodes "
				 "the DR paths name are missing; truncated file?)",
				 r->paths[first],
				 ibtopo__type_word(r->path_type[first]),
				 r->path_guid[first], missing, nodes);
	/* a -p report lists every port of every node: each link twice */
	for (size_t i = 0; i < r->nlines && !rc; i++) {
		const struct pline *l = &r->lines[i];

		if (l->linked && !l->mirrored)
			rc = ibtopo__src_error(s, l->line,
					 "incomplete report: port %u of '%s' links to port "
					 "%u of '%s', but no line lists that port "
					 "(truncated file?)",
					 l->a.port, l->a.desc, l->b.port, l->b.desc);
	}
	/* every hop the walk took is a link; up edges name a CA's port */
	for (size_t i = 0; i < r->nedges && !rc; i++) {
		const struct dr_edge *e = &r->edges[i];
		const struct ibtopo_node *n;
		const struct ibtopo_port *p;

		if (!e->port || e->to_type != IBTOPO_NODE_UNKNOWN || e->from == e->to)
			continue;
		n = ibtopo_fabric_find_node(r->f, e->from);
		p = n && e->port <= n->nports ? n->ports[e->port] : NULL;
		if (!p || !p->remote || p->remote->node->guid != e->to)
			rc = ibtopo__src_error(s, s->lineno ? s->lineno : 1,
					 "incomplete report: the DR paths cross port %u "
					 "of 0x%016" PRIx64 " to 0x%016" PRIx64 ", which "
					 "no port line links (truncated file?)",
					 e->port, e->from, e->to);
	}
	return rc;
}

static int cmp_str_ptr(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/*
 * Without the -v DR-path lines a report names CA ports, never CAs: each
 * port GUID stands for a node, so a dual-port CA reads as two. Say so
 * once, with the count, and how to get a report that joins them.
 */
static int ports_warn_unjoined(struct ports *r)
{
	struct ibtopo__src *s = r->s;
	const char **descs;
	size_t ncas = 0, alike = 0;

	if (r->npaths || !s->opts || !s->opts->warn)
		return 0;
	descs = calloc(r->nnodes + 1, sizeof(*descs));
	if (!descs)
		return ibtopo__error_set(s->err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < r->nnodes; i++)
		if (r->nodes[i].type != IBTOPO_NODE_SWITCH)
			descs[ncas++] = r->nodes[i].desc ? r->nodes[i].desc : "";
	qsort(descs, ncas, sizeof(*descs), cmp_str_ptr);
	for (size_t i = 0; i < ncas; i++)
		if ((i > 0 && strcmp(descs[i], descs[i - 1]) == 0) ||
		    (i + 1 < ncas && strcmp(descs[i], descs[i + 1]) == 0))
			alike++;
	free(descs);
	if (!ncas)
		return 0;
	if (alike)
		ibtopo__src_warn(s, "%s: %zu CA ports read as %zu CAs (%zu of them share a "
			 "description with another): without -v an ibnetdiscover -p "
			 "report cannot join the ports of one CA; run "
			 "`ibnetdiscover -p -v` for one node per CA", s->name,
			 ncas, ncas, alike);
	else
		ibtopo__src_warn(s, "%s: %zu CA ports read as %zu CAs: without -v an "
			 "ibnetdiscover -p report cannot join the ports of one CA; "
			 "run `ibnetdiscover -p -v` for one node per CA", s->name,
			 ncas, ncas);
	return 0;
}

static int read_ports(struct ibtopo_fabric **out, struct ibtopo__src *s)
{
	struct ports r = { 0 };
	int rc;

	r.s = s;
	rc = ports_parse(&r);
	if (!rc)
		rc = ports_build(&r);
	if (!rc)
		rc = ports_check_complete(&r);
	if (!rc)
		rc = ports_warn_unjoined(&r);
	if (!rc) {
		ibtopo_fabric_sort(r.f);
		*out = r.f;
		r.f = NULL;
	}
	ibtopo_fabric_free(r.f);
	free(r.lines);
	free(r.nodes);
	free(r.edges);
	free(r.paths);
	free(r.path_guid);
	free(r.path_type);
	free(r.path_line);
	ibtopo__imap_release(&r.up_idx);
	ibtopo__imap_release(&r.node_idx);
	ibtopo__imap_release(&r.edge_idx);
	ibtopo__imap_release(&r.path_idx);
	ibtopo__arena_release(&r.arena);
	return rc;
}

static bool looks_like_ports_line(const char *p, size_t n)
{
	struct pend_end e;
	char buf[128];
	const char *q = buf;

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return ports_end(&q, &e);
}

/* 1: a ports line; -1: a node record came first, so not a report. */
static int ports_or_record(void *arg, const char *p, size_t n)
{
	(void)arg;
	if ((n > 8 && strncmp(p, "DR path ", 8) == 0) ||
	    looks_like_ports_line(p, n))
		return 1;
	if (ibtopo__line_is_record(p, n))
		return -1;
	return 0;
}

/* A port or DR-path line before any node record: the strongest claim. */
static int detect_ports(const char *buf, size_t len)
{
	return ibtopo__each_line(buf, len, ports_or_record, NULL) > 0 ? 3 : 0;
}

const struct ibtopo__reader ibtopo__reader_ports = {
	.format = IBTOPO_FILE_PORTS,
	.name = "ports",
	.what = "an ibnetdiscover -p report",
	.detect = detect_ports,
	.read = read_ports,
};
