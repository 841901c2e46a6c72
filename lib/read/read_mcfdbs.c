/*
 * read_mcfdbs.c - multicast forwarding tables (MFTs) in a routing dump,
 * for read_routes.c, which hands over the lines of multicast blocks:
 *
 * OpenSM's opensm.mcfdbs (--dump_files_dir DIR -D 0x43), a block a switch
 * that names it by GUID, each MLID with the ports of its mask in hex:
 *
 *   Switch 0x0000000000200000
 *   LID    : Out Port(s)
 *   0xC000 : 0x001  0x003  0x004
 *
 * infiniband-diags' dump_fts -M and ibroute -M: a header with the MLID
 * range and the switch's GUID, the port numbers in a "Ports:" line, and
 * an 'x' under each port of an MLID's mask:
 *
 *   Multicast mlids [0xc000-0xc3ff] of switch DR path ... guid 0x...(leaf):
 *        Ports: 0 1 2 3 4
 *    MLid
 *   0xc000          x x
 *   2 valid mlids dumped
 *
 * Nothing reaches the fabric before the whole file read (ibtopo__mcr_commit).
 */
#include "read/read-int.h"

#include <stdlib.h>
#include <string.h>

#define MASK_BYTES 32 /* ports 0..255 */
#define COLS 512      /* columns of a "Ports:" line we map */

struct mc_entry {
	uint16_t mlid;
	uint8_t mask[MASK_BYTES];
};

struct mc_block {
	struct ibtopo_node *node; /* NULL: the fabric lacks it */
	size_t first, count;	  /* its entries */
};

struct ibtopo__mcr {
	struct mc_block *blk;
	size_t nblk, ablk;
	struct mc_entry *ent;
	size_t nent, aent;
	bool in_block;		/* the last header was a multicast one */
	bool x_format;		/* dump_fts -M: 'x' under the port numbers */
	int16_t col_port[COLS]; /* column -> port of the "Ports:" line */
	size_t unknown;
};

int ibtopo__mcr_new(struct ibtopo__mcr **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -1;
}

void ibtopo__mcr_free(struct ibtopo__mcr *m)
{
	if (!m)
		return;
	free(m->blk);
	free(m->ent);
	free(m);
}

bool ibtopo__mcr_in_block(const struct ibtopo__mcr *m)
{
	return m && m->in_block;
}

void ibtopo__mcr_end_block(struct ibtopo__mcr *m)
{
	if (m)
		m->in_block = false;
}

size_t ibtopo__mcr_blocks(const struct ibtopo__mcr *m)
{
	return m ? m->nblk : 0;
}

size_t ibtopo__mcr_unknown(const struct ibtopo__mcr *m)
{
	return m ? m->unknown : 0;
}

static int nomem(struct ibtopo__src *src)
{
	return ibtopo__error_set(src->err, IBTOPO_ENOMEM, "out of memory");
}

static struct ibtopo_node *switch_of(struct ibtopo__src *src,
				     struct ibtopo_fabric *f, uint64_t guid)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node(f, guid);

	if (!n) {
		struct ibtopo_port *p = ibtopo_fabric_find_port(f, guid);

		n = p ? p->node : NULL;
	}
	if (n && n->type != IBTOPO_NODE_SWITCH) {
		ibtopo__src_warn(src,
				 "%s:%u: 0x%016llx is a %s, not a switch: "
				 "its multicast table is skipped",
				 src->name, src->lineno,
				 (unsigned long long)guid,
				 ibtopo__type_word(n->type));
		n = NULL;
	}
	return n;
}

static int begin(struct ibtopo__mcr *m, struct ibtopo__src *src,
		 struct ibtopo_fabric *f, uint64_t guid, bool x_format)
{
	struct ibtopo_node *n = switch_of(src, f, guid);

	for (size_t i = 0; n && i < m->nblk; i++)
		if (m->blk[i].node == n)
			return ibtopo__src_error(
				src, src->lineno,
				"switch 0x%016llx has a second multicast "
				"table: expected one a switch",
				(unsigned long long)guid);
	if (!n)
		m->unknown++;
	if (ibtopo__grow(&m->blk, &m->ablk, m->nblk + 1, sizeof(*m->blk)))
		return nomem(src);
	m->blk[m->nblk++] = (struct mc_block){ n, m->nent, 0 };
	m->in_block = true;
	m->x_format = x_format;
	memset(m->col_port, 0xff, sizeof(m->col_port));
	return 0;
}

/* "Switch 0x<guid>" (opensm.mcfdbs) */
static int mcfdbs_header(struct ibtopo__mcr *m, struct ibtopo__src *src,
			 struct ibtopo_fabric *f, const char *p)
{
	uint64_t guid;

	p = ibtopo__skip_ws(p + strlen("Switch"));
	if (!ibtopo__parse_hex64(&p, &guid) || *ibtopo__skip_ws(p))
		return ibtopo__src_error(
			src, src->lineno,
			"expected 'Switch 0x<GUID>' (opensm.mcfdbs)");
	return begin(m, src, f, guid, false);
}

/* "Multicast mlids [A-B] of switch ... guid 0x... (...):" */
static int mlids_header(struct ibtopo__mcr *m, struct ibtopo__src *src,
			struct ibtopo_fabric *f, const char *p)
{
	const char *g = strstr(p, " guid ");
	uint64_t guid;

	if (!g)
		return ibtopo__src_error(
			src, src->lineno,
			"expected 'of switch ... guid 0x...' in the "
			"multicast header");
	g = ibtopo__skip_ws(g + 6);
	if (!ibtopo__parse_hex64(&g, &guid))
		return ibtopo__src_error(
			src, src->lineno,
			"expected the switch's GUID after 'guid'");
	return begin(m, src, f, guid, true);
}

/* "     Ports: 0 1 2 ...": the column of each port number's last digit */
static int ports_line(struct ibtopo__mcr *m, struct ibtopo__src *src,
		      const char *raw)
{
	const char *p = strstr(raw, "Ports:") + strlen("Ports:");

	memset(m->col_port, 0xff, sizeof(m->col_port));
	for (;;) {
		unsigned long port;

		p = ibtopo__skip_ws(p);
		if (!*p)
			return 0;
		if (!ibtopo__parse_uint(&p, 255, &port))
			return ibtopo__src_error(
				src, src->lineno,
				"expected port numbers after 'Ports:'");
		if ((size_t)(p - 1 - raw) < COLS)
			m->col_port[p - 1 - raw] = (int16_t)port;
	}
}

static struct mc_entry *new_entry(struct ibtopo__mcr *m,
				  struct ibtopo__src *src, uint64_t mlid)
{
	struct mc_block *b = &m->blk[m->nblk - 1];
	struct mc_entry *e;

	for (size_t i = b->first; i < b->first + b->count; i++)
		if (m->ent[i].mlid == mlid) {
			ibtopo__src_error(
				src, src->lineno,
				"MLID 0x%04llx listed twice for this switch",
				(unsigned long long)mlid);
			return NULL;
		}
	if (ibtopo__grow(&m->ent, &m->aent, m->nent + 1, sizeof(*m->ent))) {
		nomem(src);
		return NULL;
	}
	e = &m->ent[m->nent++];
	memset(e, 0, sizeof(*e));
	e->mlid = (uint16_t)mlid;
	b->count++;
	return e;
}

/* "0xC000 : 0x001  0x003" or "0xc000      x x" */
static int entry(struct ibtopo__mcr *m, struct ibtopo__src *src, const char *p,
		 const char *raw)
{
	struct mc_entry *e;
	uint64_t mlid;

	if (!ibtopo__parse_hex64(&p, &mlid) || mlid < IBTOPO_MLID_FIRST ||
	    mlid > IBTOPO_MLID_LAST)
		return ibtopo__src_error(
			src, src->lineno,
			"expected a multicast LID (0xc000..0xfffe)");
	e = new_entry(m, src, mlid);
	if (!e)
		return src->err ? src->err->code : IBTOPO_ERROR;
	if (m->x_format) {
		size_t at = (size_t)(p - raw);

		for (; raw[at]; at++) {
			int port;

			if (raw[at] == ' ' || raw[at] == '\t')
				continue;
			port = at < COLS ? m->col_port[at] : -1;
			if (raw[at] != 'x' || port < 0)
				return ibtopo__src_error(
					src, src->lineno,
					"expected 'x' under a port number of "
					"the 'Ports:' line");
			e->mask[port / 8] |= (uint8_t)(1u << (port % 8));
		}
		return 0;
	}
	p = ibtopo__skip_ws(p);
	if (*p != ':')
		return ibtopo__src_error(src, src->lineno,
					 "expected '0xMLID : 0xPORT ...'");
	for (p = ibtopo__skip_ws(p + 1); *p; p = ibtopo__skip_ws(p)) {
		uint64_t port;

		if (!ibtopo__parse_hex64(&p, &port) || port > 255)
			return ibtopo__src_error(
				src, src->lineno,
				"expected out-ports '0x001' (0..255) after "
				"the MLID");
		e->mask[port / 8] |= (uint8_t)(1u << (port % 8));
	}
	return 0;
}

int ibtopo__mcr_line(struct ibtopo__mcr *m, struct ibtopo__src *src,
		     struct ibtopo_fabric *f, const char *p, const char *raw)
{
	int rc;

	if (strncmp(p, "Switch 0x", 9) == 0)
		rc = mcfdbs_header(m, src, f, p);
	else if (strncmp(p, "Multicast mlids", 15) == 0)
		rc = mlids_header(m, src, f, p);
	else if (!m->in_block)
		return 0;
	else if (strncmp(p, "Ports:", 6) == 0)
		rc = ports_line(m, src, raw);
	else if (strncmp(p, "0x", 2) == 0 || strncmp(p, "0X", 2) == 0)
		rc = entry(m, src, p, raw);
	else
		rc = 0; /* "LID : Out Port(s)", "MLid", "2 valid mlids dumped" */
	return rc ? rc : 1;
}

int ibtopo__mcr_commit(struct ibtopo__mcr *m, struct ibtopo_fabric *f,
		       struct ibtopo_error *err)
{
	uint16_t *mlids = NULL;
	uint8_t *masks = NULL;
	size_t most = 0;
	int rc = 0;

	for (size_t i = 0; i < m->nblk; i++)
		if (m->blk[i].count > most)
			most = m->blk[i].count;
	mlids = malloc((most ? most : 1) * sizeof(*mlids));
	masks = malloc((most ? most : 1) * MASK_BYTES);
	if (!mlids || !masks) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	ibtopo_fabric_clear_mfts(f);
	for (size_t i = 0; i < m->nblk && !rc; i++) {
		const struct mc_block *b = &m->blk[i];

		if (!b->node)
			continue;
		for (size_t k = 0; k < b->count; k++) {
			mlids[k] = m->ent[b->first + k].mlid;
			memcpy(masks + k * MASK_BYTES,
			       m->ent[b->first + k].mask, MASK_BYTES);
		}
		rc = ibtopo_node_set_mft(b->node, mlids, masks, MASK_BYTES,
					 b->count, err);
	}
out_free:
	free(mlids);
	free(masks);
	return rc;
}
