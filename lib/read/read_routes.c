/*
 * read_routes.c - switch forwarding tables (LFTs) from files, attached to
 * a fabric (`routes --routes DUMP`, `import --routes`): OpenSM's
 * opensm-lfts.dump, infiniband-diags' ibroute and dump_fts output, and
 * the .fdbs files of ibdiagnet and OpenSM, told apart by their content.
 *
 * OpenSM (--dump_files_dir DIR -D 0x43) writes one block per switch, the
 * LID range in decimal, each entry's destination after '#':
 *
 *   Unicast lids [0-9] of switch Lid 5 guid 0x0000000000200002 ('leaf01'):
 *   0x0001 007 # Switch portguid 0x0000000000200000: 'spine01'
 *   9 lids dumped
 *
 * ibroute and dump_fts print the same blocks with a hex range, the switch
 * named by LID (ibroute) or by directed route (dump_fts), a two-line
 * column header and the destination in parentheses:
 *
 *   Unicast lids [0x0-0x9] of switch DR path slid 0; dlid 0; 0,1 guid
 *   0x0000000000200002 (leaf01):                       (one line)
 *     Lid  Out   Destination
 *          Port     Info
 *   0x0001 007 : (Switch portguid 0x0000000000200000: 'spine01')
 *   9 valid lids dumped
 *
 * ibdiagnet's ibdiagnet2.fdbs (and OpenSM's own opensm.fdbs) keep the
 * format of OpenSM's osm_ucast_mgr_dump_ucast_routes(): a header that
 * names the switch by GUID, a column header, one "LID : Port ..." line a
 * LID, "UNREACHABLE" where the table routes nowhere:
 *
 *   osm_ucast_mgr_dump_ucast_routes: Switch 0x0000000000200002
 *   LID    : Port : Hops : Optimal
 *   0x0001 : 007  : 01   : yes
 *   0x0003 : UNREACHABLE
 *
 * Each block is read by the syntax its header announces, so the formats
 * need no detection up front and a concatenation of them reads. Multicast
 * blocks (opensm.mcfdbs, dump_fts -M) go to read_mcfdbs.c: a file of
 * them alone sets the multicast tables and leaves the unicast ones. Switches are matched by node GUID
 * (or a port GUID of theirs); blocks for switches the fabric does not
 * have are counted, not an error. The whole file is read before any table
 * changes: bad input leaves the fabric as it was.
 */
#include "read/read-int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum block_kind { BLOCK_NONE, BLOCK_LFT, BLOCK_FDBS, BLOCK_MCAST };

/* One switch's table as the file gives it, before it goes to the fabric. */
struct pending {
	struct ibtopo_node *node;	/* NULL: the fabric lacks it */
	uint64_t guid;			/* as the header names it */
	unsigned header_line;
	unsigned top;			/* highest LID of the range or entries */
	uint8_t *tab;			/* its entries, LID -> port, 0..cap */
	unsigned cap;
};

struct rt_reader {
	struct ibtopo__src src;
	struct ibtopo_fabric *fabric;
	struct ibtopo__imap seen;	/* node pointer -> pending index */
	struct pending *pend;
	size_t npend, apend;
	uint8_t *lid_seen;		/* bitmap over LIDs, of the current block */
	enum block_kind kind;
	struct pending *cur;
	size_t unknown;
	struct ibtopo__mcr *mc;		/* its multicast blocks (read_mcfdbs.c) */
	/* a part of a file read on a thread: the switches are looked up
	 * once every part is read (resolve_parts) */
	bool defer;
	/*
	 * A fabric with no LID at all (an ibsim net file) learns them from
	 * an opensm-lfts.dump: the header's switch LID, each entry's
	 * "portguid 0x...". Taken only when the whole file reads.
	 */
	bool learn_lids;
	struct lid_seen_port {
		struct ibtopo_node *sw;	/* a switch's port 0, else NULL */
		struct ibtopo_port *port;
		uint16_t lid;
	} *lids;
	size_t nlids, alids;
};

static bool starts(const char *p, const char *w)
{
	return strncmp(p, w, strlen(w)) == 0;
}

static int nomem(struct rt_reader *r)
{
	return ibtopo__error_set(r->src.err, IBTOPO_ENOMEM, "out of memory");
}

/* The switch a GUID names: its node GUID, or the GUID of one of its ports. */
static struct ibtopo_node *switch_of(struct rt_reader *r, uint64_t guid)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node(r->fabric, guid);

	if (!n) {
		struct ibtopo_port *p = ibtopo_fabric_find_port(r->fabric, guid);

		n = p ? p->node : NULL;
	}
	if (n && n->type != IBTOPO_NODE_SWITCH) {
		ibtopo__src_warn(&r->src, "%s:%u: 0x%016llx is a %s, not a "
				 "switch: its table is skipped", r->src.name,
				 r->src.lineno, (unsigned long long)guid,
				 ibtopo__type_word(n->type));
		n = NULL;
	}
	return n;
}

static int learn_lid(struct rt_reader *r, struct ibtopo_node *sw,
		     struct ibtopo_port *port, unsigned long lid)
{
	if (!lid || lid > IBTOPO_LFT_MAX_LID)
		return 0;
	if (ibtopo__grow(&r->lids, &r->alids, r->nlids + 1, sizeof(*r->lids)))
		return nomem(r);
	r->lids[r->nlids++] = (struct lid_seen_port){ sw, port, (uint16_t)lid };
	return 0;
}

/* "... # Channel Adapter portguid 0x...: 'h1'": that port has `lid`. */
static int learn_entry_lid(struct rt_reader *r, const char *p,
			   unsigned long lid)
{
	const char *g = strstr(p, "portguid ");
	uint64_t guid;
	struct ibtopo_port *port;
	struct ibtopo_node *n;

	if (!g)
		return 0;
	g += strlen("portguid ");
	if (!ibtopo__parse_hex64(&g, &guid))
		return 0;
	port = ibtopo_fabric_find_port(r->fabric, guid);
	n = port ? NULL : ibtopo_fabric_find_node(r->fabric, guid);
	if (n && n->type != IBTOPO_NODE_SWITCH)
		n = NULL;
	if (port && port->node->type == IBTOPO_NODE_SWITCH) {
		n = port->node;
		port = NULL;
	}
	return port || n ? learn_lid(r, n, port, lid) : 0;
}

/* The LIDs learnt go to the ports that have none (switches: port 0). */
static int commit_lids(struct rt_reader *r)
{
	for (size_t i = 0; i < r->nlids; i++) {
		struct lid_seen_port *l = &r->lids[i];
		struct ibtopo_port *p = l->port;
		int rc;

		if (l->sw && !l->sw->ports[0]) {
			rc = ibtopo_node_add_port(&p, r->fabric, l->sw, 0,
						  r->src.err);
			if (rc)
				return rc;
			/* ibsim gives a switch's port 0 the node GUID */
			p->guid = l->sw->guid;
			rc = ibtopo_fabric_index_port(r->fabric, p, r->src.err);
			if (rc)
				return rc;
		} else if (l->sw) {
			p = l->sw->ports[0];
		}
		if (!p->lid)
			p->lid = l->lid;
	}
	return 0;
}

static bool fabric_has_lids(const struct ibtopo_fabric *f)
{
	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned k = 0; k <= n->nports; k++)
			if (n->ports[k] && n->ports[k]->lid)
				return true;
	}
	return false;
}

/* Close the current block: forget which LIDs it listed. */
static void end_block(struct rt_reader *r)
{
	/* every LID it listed is at most its top */
	if (r->cur)
		memset(r->lid_seen, 0, (size_t)r->cur->top / 8 + 1);
	r->cur = NULL;
}

/* A new block for the switch `guid` (its LID range ends at `top`). */
static int begin_block(struct rt_reader *r, enum block_kind kind,
		       uint64_t guid, unsigned top)
{
	unsigned line = r->src.lineno;
	struct ibtopo_node *n = r->defer ? NULL : switch_of(r, guid);
	struct pending *pd;

	end_block(r);
	r->kind = kind;
	if (r->defer) {
		/* looked up in file order once every part is read */
	} else if (n) {
		uint64_t key = ibtopo__mix64((uint64_t)(uintptr_t)n);
		size_t i = ibtopo__imap_find(&r->seen, key, NULL, NULL);

		if (i != SIZE_MAX)
			return ibtopo__src_error(&r->src, line,
				"switch 0x%016llx listed twice (first at line "
				"%u): expected one table a switch",
				(unsigned long long)guid,
				r->pend[i].header_line);
		if (ibtopo__imap_put(&r->seen, key, r->npend))
			return nomem(r);
	} else {
		r->unknown++;
	}
	if (r->npend == r->apend) {
		size_t na = r->apend ? 2 * r->apend : 64;
		struct pending *np = realloc(r->pend, na * sizeof(*np));

		if (!np)
			return nomem(r);
		r->pend = np;
		r->apend = na;
	}
	pd = &r->pend[r->npend];
	pd->tab = malloc((size_t)top + 1);
	if (!pd->tab)
		return nomem(r);
	memset(pd->tab, IBTOPO_LFT_NONE, (size_t)top + 1);
	r->npend++;
	pd->node = n;
	pd->guid = guid;
	pd->header_line = line;
	pd->top = top;
	pd->cap = top;
	r->cur = pd;
	return 0;
}

static int add_entry(struct rt_reader *r, unsigned long lid, unsigned long port)
{
	unsigned line = r->src.lineno;
	struct pending *pd = r->cur;

	if (r->lid_seen[lid / 8] & (1u << (lid % 8)))
		return ibtopo__src_error(&r->src, line,
			"LID 0x%04lx listed twice for this switch: expected "
			"one entry a LID", lid);
	r->lid_seen[lid / 8] |= (uint8_t)(1u << (lid % 8));
	if (lid > pd->cap) {
		/* past the header's range (an .fdbs block has none) */
		size_t nc = lid > 2 * (size_t)pd->cap ? lid : 2 * (size_t)pd->cap;
		uint8_t *nt;

		if (nc > IBTOPO_LFT_MAX_LID)
			nc = IBTOPO_LFT_MAX_LID;
		nt = realloc(pd->tab, nc + 1);
		if (!nt)
			return nomem(r);
		memset(nt + pd->cap + 1, IBTOPO_LFT_NONE, nc - pd->cap);
		pd->tab = nt;
		pd->cap = (unsigned)nc;
	}
	pd->tab[lid] = (uint8_t)port;
	if (lid > pd->top)
		pd->top = (unsigned)lid;
	return 0;
}

/* "Unicast lids [A-B] of switch ... guid 0x... (...):" */
static int lft_header(struct rt_reader *r, const char *p)
{
	unsigned line = r->src.lineno;
	unsigned long from, to, lid;
	const char *g, *l, *p0 = p;
	uint64_t guid;
	int rc;

	p += strlen("Unicast lids [");
	if (!ibtopo__parse_cnum(&p, 0xffff, &from) || *p++ != '-' ||
	    !ibtopo__parse_cnum(&p, 0xffff, &to) || *p++ != ']' || from > to)
		return ibtopo__src_error(&r->src, line,
			"expected a LID range '[A-B]' after 'Unicast lids'");
	g = strstr(p, " guid ");
	if (!starts(ibtopo__skip_ws(p), "of switch ") || !g)
		return ibtopo__src_error(&r->src, line,
			"expected 'of switch ... guid 0x...' after the range");
	p = ibtopo__skip_ws(g + 6);
	if (!starts(p, "0x") || !ibtopo__parse_hex64(&p, &guid))
		return ibtopo__src_error(&r->src, line,
					 "expected the switch's GUID after 'guid'");
	if (to > IBTOPO_LFT_MAX_LID)
		to = IBTOPO_LFT_MAX_LID;
	rc = begin_block(r, BLOCK_LFT, guid, (unsigned)to);
	l = strstr(p0, " Lid ");
	if (!rc && r->learn_lids && r->cur && r->cur->node && l && l < g) {
		l += strlen(" Lid ");
		if (ibtopo__parse_cnum(&l, 0xffff, &lid))
			rc = learn_lid(r, r->cur->node, NULL, lid);
	}
	return rc;
}

/* "[osm_ucast_mgr_]dump_ucast_routes: Switch 0x..." */
static int fdbs_header(struct rt_reader *r, const char *p)
{
	uint64_t guid;

	p = ibtopo__skip_ws(strchr(p, ':') + 1);
	if (!ibtopo__word_at(p, "Switch"))
		return ibtopo__src_error(&r->src, r->src.lineno,
			"expected 'Switch 0x...' after 'dump_ucast_routes:'");
	p = ibtopo__skip_ws(p + 6);
	if (!starts(p, "0x") || !ibtopo__parse_hex64(&p, &guid) ||
	    (*p && *p != ' ' && *p != '\t'))
		return ibtopo__src_error(&r->src, r->src.lineno,
			"expected the switch's GUID after 'Switch'");
	return begin_block(r, BLOCK_FDBS, guid, 0);
}

/* The out-port of an entry: 0..255, alone or before blanks. */
static bool parse_port(const char **pp, unsigned long *out)
{
	const char *p = *pp;

	if (!ibtopo__parse_uint(&p, 255, out) ||
	    (*p && *p != ' ' && *p != '\t'))
		return false;
	*pp = p;
	return true;
}

/* "0xLID PORT ..." (LFT blocks) or "0xLID : PORT ..." (fdbs blocks) */
static int entry(struct rt_reader *r, const char *p)
{
	unsigned line = r->src.lineno;
	unsigned long port;
	uint64_t lid;

	if (!r->cur)
		return ibtopo__src_error(&r->src, line,
			"expected a switch header ('Unicast lids [A-B] of "
			"switch ... guid 0x...:' or 'dump_ucast_routes: "
			"Switch 0x...') before the entries");
	if (!ibtopo__parse_hex64(&p, &lid) || (*p != ' ' && *p != '\t'))
		return ibtopo__src_error(&r->src, line,
					 "expected a LID '0x...' and a port");
	if (lid > IBTOPO_LFT_MAX_LID)
		return ibtopo__src_error(&r->src, line,
			"expected a unicast LID (0..0x%x), not 0x%llx",
			IBTOPO_LFT_MAX_LID, (unsigned long long)lid);
	p = ibtopo__skip_ws(p);
	if (r->kind == BLOCK_FDBS) {
		if (*p != ':')
			return ibtopo__src_error(&r->src, line,
				"expected '0xLID : PORT' or '0xLID : "
				"UNREACHABLE'");
		p = ibtopo__skip_ws(p + 1);
		if (ibtopo__word_at(p, "UNREACHABLE"))
			return add_entry(r, (unsigned long)lid,
					 IBTOPO_LFT_NONE);
	}
	if (!parse_port(&p, &port))
		return ibtopo__src_error(&r->src, line,
			"expected an out-port (0..255) after the LID");
	if (r->learn_lids && r->cur->node) {
		int rc = learn_entry_lid(r, p, (unsigned long)lid);

		if (rc)
			return rc;
	}
	return add_entry(r, (unsigned long)lid, port);
}

/* "9 lids dumped", "9 valid lids dumped", "12 lids in use": footers */
static bool is_footer(const char *p)
{
	unsigned long n;

	if (!ibtopo__parse_uint(&p, 0xffffffffUL, &n))
		return false;
	p = ibtopo__skip_ws(p);
	if (ibtopo__word_at(p, "valid"))
		p = ibtopo__skip_ws(p + 5);
	return ibtopo__word_at(p, "lids");
}

static int read_line(struct rt_reader *r, const char *p)
{
	int rc;

	if (starts(p, "Unicast lids [")) {
		ibtopo__mcr_end_block(r->mc);
		return lft_header(r, p);
	}
	if (starts(p, "dump_ucast_routes:") ||
	    starts(p, "osm_ucast_mgr_dump_ucast_routes:")) {
		ibtopo__mcr_end_block(r->mc);
		return fdbs_header(r, p);
	}
	if (*p == '#')
		return 0;
	/* multicast blocks: opensm.mcfdbs, dump_fts -M (read_mcfdbs.c) */
	rc = ibtopo__mcr_line(r->mc, &r->src, r->fabric, p, r->src.line);
	if (rc > 0 && r->kind != BLOCK_MCAST) {
		end_block(r);
		r->kind = BLOCK_MCAST;
	}
	if (rc)
		return rc < 0 ? rc : 0;
	if (is_footer(p))
		return 0;
	/* column headers: "Lid  Out   Destination", "Port     Info",
	 * "LID    : Port : Hops : Optimal" */
	if (ibtopo__word_at(p, "Lid") || ibtopo__word_at(p, "LID") ||
	    ibtopo__word_at(p, "Port"))
		return 0;
	if (starts(p, "0x") || starts(p, "0X"))
		return entry(r, p);
	return ibtopo__src_error(&r->src, r->src.lineno,
		"expected a routing table line ('Unicast lids [A-B] of "
		"switch ... guid 0x...:', 'dump_ucast_routes: Switch 0x...' "
		"or '0xLID PORT')");
}

/*
 * The tables of `nparts` readers (the parts of one file, in order) go to
 * the fabric: the old ones are set aside and come back if a new one
 * cannot be attached.
 */
static int commit(struct ibtopo_fabric *fabric, const struct rt_reader *parts,
		  size_t nparts, const char *engine, struct ibtopo_error *err)
{
	size_t nn = ibtopo_fabric_node_count(fabric);
	const char *old_engine = ibtopo_fabric_routing_engine(fabric);
	struct ibtopo_lft **old = NULL;
	char *engine_copy = NULL;
	int rc = 0;

	old = calloc(nn ? nn : 1, sizeof(*old));
	if (old_engine)
		engine_copy = strdup(old_engine);
	if (!old || (old_engine && !engine_copy)) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	rc = ibtopo_fabric_set_routing_engine(fabric, engine, err);
	if (rc)
		goto out_free;
	for (size_t i = 0; i < nn; i++) {
		struct ibtopo_node *n = ibtopo_fabric_node(fabric, i);

		old[i] = n->lft;
		n->lft = NULL;
	}
	for (size_t p = 0; p < nparts; p++)
		for (size_t i = 0; i < parts[p].npend; i++) {
			const struct pending *pd = &parts[p].pend[i];

			if (!pd->node)
				continue;
			rc = ibtopo_node_set_lft(pd->node, pd->tab, pd->top,
						 err);
			if (rc)
				goto out_restore;
		}
	for (size_t i = 0; i < nn; i++)
		if (old[i]) {
			free(old[i]->port);
			free(old[i]);
		}
	goto out_free;

out_restore:
	ibtopo_fabric_clear_routes(fabric);
	for (size_t i = 0; i < nn; i++)
		ibtopo_fabric_node(fabric, i)->lft = old[i];
	ibtopo_fabric_set_routing_engine(fabric, engine_copy, NULL);
out_free:
	free(engine_copy);
	free(old);
	return rc;
}

/*
 * The common line of an LFT block, "0xLID PORT ..." with a LID of up to
 * four digits, read in place: 1 when read, 0 when the full reader must
 * look at the line (also to word its error), or an error.
 */
static int fast_entry(struct rt_reader *r, const char *p, size_t n)
{
	unsigned lid = 0, port = 0, k = 2, d;
	int rc;

	if (r->kind != BLOCK_LFT || !r->cur || r->learn_lids || n < 8 ||
	    p[0] != '0' || p[1] != 'x')
		return 0;
	for (; k < 6 && k < n; k++) {
		char c = p[k];

		if (c >= '0' && c <= '9')
			lid = lid * 16 + (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			lid = lid * 16 + (unsigned)((c | 0x20) - 'a' + 10);
		else
			break;
	}
	if (k == 2 || k >= n || p[k] != ' ' || lid > IBTOPO_LFT_MAX_LID)
		return 0;
	while (k < n && p[k] == ' ')
		k++;
	for (d = 0; k < n && d < 3 && p[k] >= '0' && p[k] <= '9'; k++, d++)
		port = port * 10 + (unsigned)(p[k] - '0');
	if (!d || port > 255 || (k < n && p[k] != ' ' && p[k] != '\t'))
		return 0;
	rc = add_entry(r, lid, port);
	return rc ? rc : 1;
}

/* Read the complete lines of `data` (the lines go on from r->src.lineno). */
static int read_chunk(struct rt_reader *r, const char *data, size_t len,
		      const char *name, const struct ibtopo_read_opts *ro,
		      struct ibtopo_error *err)
{
	unsigned line = r->src.lineno;
	size_t pos = 0;
	int rc;

	ibtopo__src_init(&r->src, data, len, name, ro, err);
	r->src.lineno = line;
	if (memchr(data, '\0', len))
		return ibtopo__src_error(&r->src, line + 1,
			"binary data (expected a routing table dump)");
	while (pos < len) {
		const char *p = data + pos, *nl = memchr(p, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - p) : len - pos;

		if (n && p[n - 1] == '\r')
			n--;
		r->src.lineno++;
		rc = fast_entry(r, p, n);
		if (rc < 0)
			return rc;
		if (rc > 0) {
			pos += (size_t)(nl ? nl - p : (ptrdiff_t)n) + 1;
			continue;
		}
		/* anything else: the line reader, from this line */
		r->src.pos = pos;
		r->src.lineno--;
		rc = ibtopo__src_next(&r->src);
		if (rc <= 0)
			return rc;
		pos = r->src.pos;
		p = ibtopo__skip_ws(r->src.line);
		if (!*p)
			continue;
		rc = read_line(r, p);
		if (rc)
			return rc;
	}
	return 0;
}

static void release(struct rt_reader *r)
{
	ibtopo__imap_release(&r->seen);
	ibtopo__mcr_free(r->mc);
	free(r->lid_seen);
	for (size_t i = 0; i < r->npend; i++)
		free(r->pend[i].tab);
	free(r->pend);
	free(r->lids);
}

/* After the last chunk: the tables go to the fabric. */
static int finish(struct rt_reader *r, const struct ibtopo_routes_load_opts *opts,
		  size_t *out_unknown)
{
	int rc;

	size_t mcast = ibtopo__mcr_blocks(r->mc);

	if (!r->npend && !mcast)
		return ibtopo__src_error(&r->src,
			r->src.lineno ? r->src.lineno : 1,
			"expected a routing table dump: OpenSM's "
			"opensm-lfts.dump, ibroute or dump_fts output "
			"('Unicast lids [A-B] of switch ... guid 0x...:'), "
			"an .fdbs file ('dump_ucast_routes: Switch 0x...') "
			"or multicast tables (opensm.mcfdbs 'Switch 0x...', "
			"dump_fts -M)");
	/* a file of multicast tables alone leaves the unicast ones */
	rc = r->npend ? commit(r->fabric, r, 1, opts ? opts->engine : NULL,
			       r->src.err) :
			0;
	if (!rc && r->npend)
		rc = commit_lids(r);
	if (!rc && mcast)
		rc = ibtopo__mcr_commit(r->mc, r->fabric, r->src.err);
	if (!rc && out_unknown)
		*out_unknown = r->unknown + ibtopo__mcr_unknown(r->mc);
	return rc;
}

static int begin(struct rt_reader *r, struct ibtopo_fabric *fabric,
		 const struct ibtopo_routes_load_opts *opts,
		 struct ibtopo_read_opts *ro, const char *name,
		 struct ibtopo_error *err)
{
	memset(r, 0, sizeof(*r));
	if (opts) {
		ro->warn = opts->warn;
		ro->warn_arg = opts->warn_arg;
	}
	ibtopo__src_init(&r->src, "", 0, name, ro, err);
	r->fabric = fabric;
	r->learn_lids = !fabric_has_lids(fabric);
	r->lid_seen = calloc(((size_t)IBTOPO_LFT_MAX_LID + 8) / 8, 1);
	if (!r->lid_seen || ibtopo__mcr_new(&r->mc))
		return nomem(r);
	return 0;
}

int ibtopo_routes_load_buffer(struct ibtopo_fabric *fabric, const char *data,
			      size_t len, const char *name,
			      const struct ibtopo_routes_load_opts *opts,
			      size_t *out_unknown, struct ibtopo_error *err)
{
	struct ibtopo_read_opts ro = IBTOPO_READ_OPTS_INIT;
	struct rt_reader r;
	int rc;

	if (!fabric || (!data && len))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric or no data");
	if (!name)
		name = "routes";
	rc = begin(&r, fabric, opts, &ro, name, err);
	if (!rc)
		rc = read_chunk(&r, data ? data : "", len, name, &ro, err);
	if (!rc)
		rc = finish(&r, opts, out_unknown);
	release(&r);
	return rc;
}

/*
 * A file is read in chunks of whole lines, not whole: OpenSM's dump of
 * an 11,664-host fat tree is 1.4 GB, its tables 22 MB.
 */
#define CHUNK (8u << 20)

static const char *last_newline(const char *buf, size_t len)
{
	while (len > 0)
		if (buf[--len] == '\n')
			return buf + len;
	return NULL;
}

/* What read() gives of `fd`, through `buf` (CHUNK bytes), a chunk of
 * whole lines at a time. */
static int read_fd(struct rt_reader *r, int fd, char *buf, const char *path,
		   const struct ibtopo_read_opts *ro, struct ibtopo_error *err)
{
	size_t have = 0;
	ssize_t n;

	do {
		const char *nl;
		size_t use;

		n = read(fd, buf + have, CHUNK - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ibtopo__error_set(err, IBTOPO_EIO,
						 "cannot read '%s': %s", path,
						 strerror(errno));
		have += (size_t)n;
		/* whole lines now, the rest with the next chunk; a line
		 * longer than a chunk is cut (and refused as too long) */
		nl = n ? last_newline(buf, have) : NULL;
		use = !n ? have : nl ? (size_t)(nl - buf) + 1 :
		      have == CHUNK ? have : 0;
		if (use) {
			int rc = read_chunk(r, buf, use, path, ro, err);

			if (rc)
				return rc;
			memmove(buf, buf + use, have - use);
			have -= use;
		}
	} while (n);
	return 0;
}

/* The file in order, on this thread: a file that is not regular (a
 * pipe), and the one that the parts found wrong, to word it. */
static int load_serial(struct ibtopo_fabric *fabric, const char *path,
		       const struct ibtopo_routes_load_opts *opts,
		       size_t *out_unknown, struct ibtopo_error *err)
{
	struct ibtopo_read_opts ro = IBTOPO_READ_OPTS_INIT;
	struct rt_reader r;
	char *buf = NULL;
	FILE *f;
	int rc;

	f = ibtopo__open_read(path, "rb");
	if (!f)
		return ibtopo__error_set(err, IBTOPO_EIO,
					 "cannot open '%s': %s", path,
					 strerror(errno));
	rc = begin(&r, fabric, opts, &ro, path, err);
	if (rc)
		goto out_close;
	buf = malloc(CHUNK);
	if (!buf)
		rc = nomem(&r);
	if (!rc)
		rc = read_fd(&r, fileno(f), buf, path, &ro, err);
	if (!rc)
		rc = finish(&r, opts, out_unknown);
	free(buf);
	release(&r);
out_close:
	fclose(f);
	return rc;
}

/* ---- a large file in parts, on the threads ---- */

/* A line that starts a block: a file may be cut before it. */
static bool header_at(const char *p, size_t n)
{
	static const char *const heads[] = {
		"Unicast lids [",
		"dump_ucast_routes:",
		"osm_ucast_mgr_dump_ucast_routes:",
		"Multicast mlids",
	};

	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		size_t k = strlen(heads[i]);

		if (n >= k && memcmp(p, heads[i], k) == 0)
			return true;
	}
	return false;
}

#define WINDOW 65536
#define OVERLAP 64 /* more than the longest header word */

/* The first line at or after byte `at` (> 0) that starts a block, or
 * `size`. */
static off_t next_header(int fd, off_t size, off_t at)
{
	char *win = malloc(WINDOW + OVERLAP);
	off_t found = size;

	for (off_t base = at - 1; win && base < size && found == size;
	     base += WINDOW) {
		ssize_t n = pread(fd, win, WINDOW + OVERLAP, base);
		const char *p = win, *end = win + (n > 0 ? n : 0);

		if (n <= 0)
			break;
		while (found == size && p < end && p < win + WINDOW) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));

			if (!nl || nl >= win + WINDOW)
				break;
			if (header_at(nl + 1, (size_t)(end - nl - 1)))
				found = base + (nl + 1 - win);
			p = nl + 1;
		}
	}
	free(win);
	return found;
}

struct parts {
	int fd;
	const char *path;
	struct ibtopo_read_opts ro;
	off_t *bound;	     /* part i: bound[i] to bound[i + 1] */
	struct rt_reader *r; /* per part */
};

/*
 * The bytes `from` to `to` of `fd` (a part, which ends at the end of a
 * line or of the file), mapped a window of CHUNK bytes at a time: the
 * page cache is read in place, not copied. A line longer than a window
 * is an error here (the file is then read in order, which words it).
 */
static int map_part(struct rt_reader *r, int fd, off_t from, off_t to,
		    const char *path, const struct ibtopo_read_opts *ro,
		    struct ibtopo_error *err)
{
	off_t pg = (off_t)sysconf(_SC_PAGESIZE);
	int rc = 0;

	while (!rc && from < to) {
		off_t at = from - from % pg;
		size_t len = (size_t)(to - at < CHUNK ? to - at : CHUNK);
		size_t skip = (size_t)(from - at), n = len - skip, use;
		char *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
			       fd, at);
		const char *nl;

		if (m == MAP_FAILED)
			return ibtopo__error_set(err, IBTOPO_EIO,
						 "cannot map '%s': %s", path,
						 strerror(errno));
		nl = last_newline(m + skip, n);
		if (from + (off_t)n == to)
			use = n;
		else
			use = nl ? (size_t)(nl - (m + skip)) + 1 : 0;
		rc = use ? read_chunk(r, m + skip, use, path, ro, err) :
			   ibtopo__error_set(err, IBTOPO_EPARSE, "long line");
		munmap(m, len);
		from += (off_t)use;
	}
	return rc;
}

static int read_part(void *arg, unsigned worker, size_t i,
		     struct ibtopo_error *err)
{
	struct parts *ps = arg;

	(void)worker;
	return map_part(&ps->r[i], ps->fd, ps->bound[i], ps->bound[i + 1],
			ps->path, &ps->ro, err);
}

/*
 * The switches the parts' headers name, looked up in file order: true
 * when every one is a switch of the fabric or unknown, and none comes
 * twice. Otherwise the file is read again in order, which words the
 * warning or the error where it belongs.
 */
static bool resolve_parts(struct rt_reader *parts, size_t nparts,
			  struct ibtopo_fabric *fabric, size_t *unknown)
{
	struct ibtopo__imap seen;
	bool ok = true;

	memset(&seen, 0, sizeof(seen));
	*unknown = 0;
	for (size_t p = 0; p < nparts && ok; p++)
		for (size_t i = 0; i < parts[p].npend && ok; i++) {
			struct pending *pd = &parts[p].pend[i];
			struct ibtopo_node *n =
				ibtopo_fabric_find_node(fabric, pd->guid);
			uint64_t key;

			if (!n) {
				struct ibtopo_port *port =
					ibtopo_fabric_find_port(fabric,
								pd->guid);

				n = port ? port->node : NULL;
			}
			pd->node = n;
			if (!n) {
				(*unknown)++;
				continue;
			}
			key = ibtopo__mix64((uint64_t)(uintptr_t)n);
			ok = n->type == IBTOPO_NODE_SWITCH &&
			     ibtopo__imap_find(&seen, key, NULL, NULL) ==
				     SIZE_MAX &&
			     ibtopo__imap_put(&seen, key, 0) == 0;
		}
	ibtopo__imap_release(&seen);
	return ok;
}

/* Cut the file into parts at block headers (a few a thread, to share
 * the work out evenly). */
static size_t cut_parts(off_t *bound, size_t nparts, int fd, off_t size)
{
	size_t n = 0;

	bound[0] = 0;
	for (size_t i = 1; i < nparts; i++) {
		off_t b = next_header(fd, size,
				      (off_t)((double)size * i / nparts));

		if (b > bound[n] && b < size)
			bound[++n] = b;
	}
	bound[++n] = size;
	return n;
}

/*
 * Read a regular file in parts on the threads and commit their tables:
 * 0, an error of the commit, or 1 when the file must be read in order
 * (a fabric that learns its LIDs, a file that is not regular, anything
 * in the parts that is an error or a warning).
 */
static int load_parts(struct ibtopo_fabric *fabric, const char *path,
		      const struct ibtopo_routes_load_opts *opts,
		      size_t *out_unknown, unsigned nthreads,
		      struct ibtopo_error *err)
{
	struct ibtopo_read_opts ro0 = IBTOPO_READ_OPTS_INIT;
	struct parts ps = { .fd = -1, .path = path, .ro = ro0 };
	size_t nparts = nthreads > 1 ? 2 * (size_t)nthreads : 1, unknown = 0,
	       made = 0, total = 0;
	struct ibtopo_error scratch;
	struct stat st;
	int rc = 1;

	if (!fabric_has_lids(fabric))
		return 1;
	ps.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ps.fd < 0)
		return 1;
	ps.bound = calloc(nparts + 1, sizeof(*ps.bound));
	ps.r = calloc(nparts, sizeof(*ps.r));
	if (fstat(ps.fd, &st) != 0 || !S_ISREG(st.st_mode) || !ps.bound ||
	    !ps.r)
		goto out_free;
	nparts = cut_parts(ps.bound, nparts, ps.fd, st.st_size);
	for (; made < nparts; made++) {
		struct rt_reader *r = &ps.r[made];

		if (begin(r, fabric, NULL, &ps.ro, path, &scratch))
			goto out_free;
		r->learn_lids = false;
		r->defer = true;
	}
	if (ibtopo__parallel(nparts, nthreads, read_part, &ps, &scratch) ||
	    !resolve_parts(ps.r, nparts, fabric, &unknown))
		goto out_free;
	for (size_t i = 0; i < nparts; i++) {
		total += ps.r[i].npend;
		/* multicast blocks (read_mcfdbs.c) are committed in order */
		if (ibtopo__mcr_blocks(ps.r[i].mc))
			goto out_free;
	}
	if (!total) /* the in-order reader words what is missing */
		goto out_free;
	rc = commit(fabric, ps.r, nparts, opts ? opts->engine : NULL, err);
	if (!rc && out_unknown)
		*out_unknown = unknown;
out_free:
	for (size_t i = 0; i < made; i++)
		release(&ps.r[i]);
	free(ps.r);
	free(ps.bound);
	close(ps.fd);
	return rc;
}

int ibtopo_routes_load(struct ibtopo_fabric *fabric, const char *path,
		       const struct ibtopo_routes_load_opts *opts,
		       size_t *out_unknown, struct ibtopo_error *err)
{
	unsigned nthreads = ibtopo_threads();
	int rc = 1;

	if (!fabric || !path)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric or no path");
	rc = load_parts(fabric, path, opts, out_unknown, nthreads, err);
	if (rc == 1)
		rc = load_serial(fabric, path, opts, out_unknown, err);
	return rc;
}

/* ---- the routing engine an OpenSM log names ---- */

static bool engine_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

bool ibtopo_routing_engine_name_ok(const char *name)
{
	size_t n = 0;

	if (!name)
		return false;
	for (; name[n]; n++)
		if (!engine_char(name[n]) || n >= IBTOPO_ROUTING_ENGINE_MAX)
			return false;
	return n > 0;
}

/*
 * The engine of one log line: the word before " tables configured on all
 * switches", after a space or a ':' (OpenSM 3.3: "osm_ucast_mgr_process:
 * ftree tables configured on all switches"; older ones name their default
 * "null (min-hop)"). Its start and length, or false.
 */
static bool log_line_engine(const char *line, size_t len, const char **start,
			    size_t *n)
{
	static const char tail[] = " tables configured on all switches";
	static const char old_default[] = "null (min-hop)";
	const size_t tn = sizeof(tail) - 1, on = sizeof(old_default) - 1;
	size_t at, b;

	for (at = 0; at + tn <= len; at++)
		if (line[at] == ' ' && memcmp(line + at, tail, tn) == 0)
			break;
	if (at + tn > len)
		return false;
	if (at >= on && memcmp(line + at - on, old_default, on) == 0 &&
	    (at == on || line[at - on - 1] == ' ')) {
		*start = "minhop";
		*n = 6;
		return true;
	}
	for (b = at; b > 0 && engine_char(line[b - 1]); b--)
		;
	if (b == at || at - b > IBTOPO_ROUTING_ENGINE_MAX ||
	    (b > 0 && line[b - 1] != ' ' && line[b - 1] != ':'))
		return false;
	*start = line + b;
	*n = at - b;
	return true;
}

int ibtopo_routes_log_engine_buffer(char **out, const char *data, size_t len,
				    const char *name, struct ibtopo_error *err)
{
	const char *last = NULL;
	size_t last_n = 0;

	if (!out || (!data && len))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no output pointer or no data");
	*out = NULL;
	for (size_t pos = 0; pos < len;) {
		const char *line = data + pos, *eol, *start;
		size_t n, ll;

		eol = memchr(line, '\n', len - pos);
		ll = eol ? (size_t)(eol - line) : len - pos;
		if (log_line_engine(line, ll, &start, &n)) {
			last = start;
			last_n = n;
		}
		pos += ll + 1;
	}
	if (!last)
		return ibtopo__error_set(err, IBTOPO_EPARSE,
			"%s: no '<engine> tables configured on all switches' "
			"line: not an OpenSM log, or none that routed",
			name ? name : "log");
	*out = strndup(last, last_n);
	if (!*out)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	return 0;
}

int ibtopo_routes_log_engine(char **out, const char *path,
			     struct ibtopo_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (!out || !path)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no output pointer or no path");
	*out = NULL;
	rc = ibtopo__read_whole_file(&buf, &len, path, err);
	if (rc)
		return rc;
	rc = ibtopo_routes_log_engine_buffer(out, buf, len, path, err);
	free(buf);
	return rc;
}
