/*
 * read_iblinkinfo.c - `iblinkinfo` output (infiniband-diags), what many
 * sites keep of their fabric: a block per node,
 *
 *   Switch: 0x0002c90200482d08 leaf01:
 *        5    1[  ] ==( 4X  53.125 Gbps Active/  LinkUp)==>  2  1[  ] "host01" ( )
 *        5    4[  ] ==(                Down/ Polling)==>          [  ] "" ( )
 *   CA: host01:
 *        0x0002c90300a1b2c1   2  1[  ] ==( 4X  53.125 Gbps Active/  LinkUp)==>  5  1[  ] "leaf01" ( )
 *
 * a port per line: its LID, number, width, per-lane rate, port and
 * physical state, and its peer's LID, port and description. A switch's
 * header gives its node GUID; a CA's gives none, and the CA takes the GUID
 * of its first port. Peers are found by LID (a switch's LID is its port
 * 0's). The one-line mode (`iblinkinfo -l`) names nodes by GUID only and
 * not their type, so it is refused with a message saying so.
 */
#include "read/read-int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define NLIDS 65536

struct ibl_node {
	enum ibtopo_node_type type;
	uint64_t guid;		/* 0 until a CA's first port */
	char *desc;
	unsigned line;
	unsigned maxport;
	struct ibtopo_node *node;
};

struct ibl_port {
	size_t node;		/* index into nodes */
	unsigned num, ext, line;
	unsigned lid;
	uint64_t guid;		/* CA port GUID; 0 for switch ports */
	unsigned width, speed, state, phys;
	bool has_peer;
	unsigned peer_lid, peer_num;
	char *peer_desc;
};

struct ibl {
	struct ibtopo__src *s;
	struct ibl_node *nodes;
	size_t nnodes, anodes;
	struct ibl_port *ports;
	size_t nports, aports;
};

static void skip_blanks(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

static bool read_uint(const char **p, unsigned long max, unsigned *out)
{
	char *end;
	unsigned long v;

	skip_blanks(p);
	if (!isdigit((unsigned char)**p))
		return false;
	v = strtoul(*p, &end, 10);
	if (v > max)
		return false;
	*p = end;
	*out = (unsigned)v;
	return true;
}

static bool read_guid(const char **p, uint64_t *out)
{
	char *end;

	skip_blanks(p);
	if (strncmp(*p, "0x", 2) != 0 || !isxdigit((unsigned char)(*p)[2]))
		return false;
	*out = strtoull(*p + 2, &end, 16);
	*p = end;
	return true;
}

/* "1[  ]" or "1[2 ]": the port number and its external number */
static bool read_port(const char **p, unsigned *num, unsigned *ext)
{
	*ext = 0;
	if (!read_uint(p, 255, num) || **p != '[')
		return false;
	(*p)++;
	skip_blanks(p);
	if (isdigit((unsigned char)**p) && !read_uint(p, 255, ext))
		return false;
	skip_blanks(p);
	if (**p != ']')
		return false;
	(*p)++;
	return true;
}

/* The per-lane rate iblinkinfo prints, to a speed bit. */
static unsigned lane_speed(const char *tok)
{
	static const struct {
		const char *rate;
		unsigned speed;
	} rates[] = {
		{ "2.5", IBTOPO_SPEED_SDR },	  { "5.0", IBTOPO_SPEED_DDR },
		{ "10.0", IBTOPO_SPEED_QDR },	  { "10.3125", IBTOPO_SPEED_FDR10 },
		{ "14.0625", IBTOPO_SPEED_FDR },  { "25.78125", IBTOPO_SPEED_EDR },
		{ "53.125", IBTOPO_SPEED_HDR },	  { "106.25", IBTOPO_SPEED_NDR },
		{ "212.5", IBTOPO_SPEED_XDR },	  { "FDR10", IBTOPO_SPEED_FDR10 },
	};

	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(rates); i++)
		if (strcmp(tok, rates[i].rate) == 0)
			return rates[i].speed;
	return 0;
}

static unsigned phys_state(const char *tok)
{
	static const char *const names[] = {
		"", "Sleep", "Polling", "Disabled", "PortConfigurationTraining",
		"LinkUp", "LinkErrorRecovery", "PhyTest",
	};

	for (unsigned i = 1; i < IBTOPO__ARRAY_SIZE(names); i++)
		if (strcmp(tok, names[i]) == 0)
			return i;
	return 0;
}

static unsigned port_state(const char *tok)
{
	static const char *const names[] = { "", "Down", "Init", "Armed",
					     "Active" };

	for (unsigned i = 1; i < IBTOPO__ARRAY_SIZE(names); i++)
		if (strcmp(tok, names[i]) == 0)
			return i;
	return 0;
}

/* "( 4X  53.125 Gbps Active/  LinkUp)": between "==(" and ")==>" */
static int read_link(struct ibl *r, char *mid, struct ibl_port *pt)
{
	char *save = NULL, *tok, *slash;

	for (tok = strtok_r(mid, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		size_t n = strlen(tok);

		if (n >= 2 && toupper((unsigned char)tok[n - 1]) == 'X' &&
		    isdigit((unsigned char)tok[0])) {
			tok[n - 1] = 'x';
			pt->width = ibtopo_width_parse(tok);
			if (!pt->width)
				return ibtopo__src_error(r->s, r->s->lineno,
							 "unknown width '%s'", tok);
		} else if (strcmp(tok, "Gbps") == 0) {
			continue;
		} else if ((slash = strchr(tok, '/')) != NULL) {
			*slash = '\0';
			pt->state = port_state(tok);
			if (!pt->state)
				return ibtopo__src_error(r->s, r->s->lineno,
							 "unknown port state '%s'", tok);
			if (slash[1])
				pt->phys = phys_state(slash + 1);
		} else if (pt->state && !pt->phys) {
			pt->phys = phys_state(tok);
			if (!pt->phys)
				return ibtopo__src_error(r->s, r->s->lineno,
							 "unknown physical state '%s'", tok);
		} else {
			pt->speed = lane_speed(tok);
			if (!pt->speed)
				return ibtopo__src_error(r->s, r->s->lineno,
							 "unknown rate '%s' (Gbps per lane)", tok);
		}
	}
	if (!pt->state)
		return ibtopo__src_error(r->s, r->s->lineno,
					 "expected a port state such as 'Active/'");
	return 0;
}

static char *dup_n(const char *p, size_t n)
{
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, p, n);
		s[n] = '\0';
	}
	return s;
}

static int add_node(struct ibl *r, enum ibtopo_node_type type, uint64_t guid,
		    const char *desc, size_t n)
{
	struct ibl_node *nd;

	if (r->nnodes == r->anodes) {
		size_t na = r->anodes ? r->anodes * 2 : 64;
		void *nb = realloc(r->nodes, na * sizeof(*r->nodes));

		if (!nb)
			return ibtopo__error_set(r->s->err, IBTOPO_ENOMEM, "out of memory");
		r->nodes = nb;
		r->anodes = na;
	}
	nd = &r->nodes[r->nnodes];
	memset(nd, 0, sizeof(*nd));
	nd->type = type;
	nd->guid = guid;
	nd->line = r->s->lineno;
	nd->desc = dup_n(desc, n);
	if (!nd->desc)
		return ibtopo__error_set(r->s->err, IBTOPO_ENOMEM, "out of memory");
	r->nnodes++;
	return 0;
}

/* "Switch: 0x... desc:" or "CA: desc:" */
static int read_header(struct ibl *r, const char *p)
{
	enum ibtopo_node_type type = IBTOPO_NODE_CA;
	uint64_t guid = 0;
	size_t n;

	if (strncmp(p, "Switch:", 7) == 0) {
		type = IBTOPO_NODE_SWITCH;
		p += 7;
		if (!read_guid(&p, &guid) || !guid)
			return ibtopo__src_error(r->s, r->s->lineno,
						 "expected the switch's node GUID after 'Switch:'");
	} else {
		p += 3;
	}
	skip_blanks(&p);
	n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (!n || p[n - 1] != ':')
		return ibtopo__src_error(r->s, r->s->lineno,
					 "expected the node's description and ':'");
	return add_node(r, type, guid, p, n - 1);
}

static int read_port_line(struct ibl *r, char *line)
{
	const char *p = line;
	char *mid, *end;
	struct ibl_port pt = { 0 };
	struct ibl_node *nd;
	const char *q;
	int rc;

	if (!r->nnodes)
		return ibtopo__src_error(r->s, r->s->lineno,
					 "a port line before any 'Switch:' or 'CA:' line");
	nd = &r->nodes[r->nnodes - 1];
	pt.node = r->nnodes - 1;
	pt.line = r->s->lineno;
	if (nd->type == IBTOPO_NODE_CA && !read_guid(&p, &pt.guid))
		return ibtopo__src_error(r->s, r->s->lineno,
					 "expected the CA port's GUID");
	if (!read_uint(&p, 0xffff, &pt.lid) || !read_port(&p, &pt.num, &pt.ext))
		return ibtopo__src_error(r->s, r->s->lineno,
					 "expected a LID and a port number as '1[  ]'");
	/* iblinkinfo lists physical ports; a switch's port 0 has no cable */
	if (!pt.num)
		return ibtopo__src_error(r->s, r->s->lineno,
					 "port 0 (expected a physical port, 1 or more)");
	mid = strstr(line, "==(");
	end = mid ? strstr(mid, ")==>") : NULL;
	if (!mid || !end)
		return ibtopo__src_error(r->s, r->s->lineno,
					 "expected '==( ... )==>' after the port");
	*end = '\0';
	rc = read_link(r, mid + 3, &pt);
	if (rc)
		return rc;
	q = end + 4;
	skip_blanks(&q);
	if (isdigit((unsigned char)*q)) {
		const char *d, *de;
		unsigned peer_ext;

		if (!read_uint(&q, 0xffff, &pt.peer_lid) ||
		    !read_port(&q, &pt.peer_num, &peer_ext))
			return ibtopo__src_error(r->s, r->s->lineno,
						 "expected the peer's LID and port as '1[  ]'");
		if (!pt.peer_num)
			return ibtopo__src_error(r->s, r->s->lineno,
						 "peer port 0 (expected a physical port, 1 or more)");
		skip_blanks(&q);
		d = *q == '"' ? q + 1 : NULL;
		de = d ? strchr(d, '"') : NULL;
		if (!de)
			return ibtopo__src_error(r->s, r->s->lineno,
						 "expected the peer's description in quotes");
		pt.peer_desc = dup_n(d, (size_t)(de - d));
		if (!pt.peer_desc)
			return ibtopo__error_set(r->s->err, IBTOPO_ENOMEM, "out of memory");
		pt.has_peer = true;
	} else if (*q != '[') {
		return ibtopo__src_error(r->s, r->s->lineno,
					 "expected the peer's LID and port, or '[  ]' for none");
	}
	if (nd->type == IBTOPO_NODE_CA && !nd->guid)
		nd->guid = pt.guid;
	if (pt.num > nd->maxport)
		nd->maxport = pt.num;
	if (r->nports == r->aports) {
		size_t na = r->aports ? r->aports * 2 : 256;
		void *nb = realloc(r->ports, na * sizeof(*r->ports));

		if (!nb) {
			free(pt.peer_desc);
			return ibtopo__error_set(r->s->err, IBTOPO_ENOMEM, "out of memory");
		}
		r->ports = nb;
		r->aports = na;
	}
	r->ports[r->nports++] = pt;
	return 0;
}

static int ibl_parse(struct ibl *r)
{
	int rc;

	while ((rc = ibtopo__src_next(r->s)) > 0) {
		char *p = r->s->line;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if (strncmp(p, "Switch:", 7) == 0 || strncmp(p, "CA:", 3) == 0)
			rc = read_header(r, p);
		else if (strncmp(p, "0x", 2) == 0 && strchr(p, '"') &&
			 strchr(p, '"') < strstr(p, "==("))
			rc = ibtopo__src_error(r->s, r->s->lineno,
				"iblinkinfo's one-line mode (-l) does not say which nodes are switches; keep the output of iblinkinfo without -l");
		else
			rc = read_port_line(r, p);
		if (rc)
			return rc;
	}
	return rc;
}

static int ibl_build(struct ibl *r, struct ibtopo_fabric **out)
{
	struct ibtopo_fabric *f = NULL;
	struct ibtopo_port **ports = NULL;
	size_t *by_lid = NULL, unlisted = 0;
	unsigned first_unlisted = 0;
	int rc;

	rc = ibtopo_fabric_new(&f, r->s->err);
	if (rc)
		return rc;
	ports = calloc(r->nports ? r->nports : 1, sizeof(*ports));
	by_lid = calloc(NLIDS, sizeof(*by_lid));	/* node index + 1 */
	if (!ports || !by_lid) {
		rc = ibtopo__error_set(r->s->err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < r->nnodes && !rc; i++) {
		struct ibl_node *nd = &r->nodes[i];

		/* a node with no port: nothing another format could write */
		if (!nd->guid || !nd->maxport) {
			rc = ibtopo__src_error(r->s, nd->line, "%s '%s' lists no port",
					       ibtopo__type_word(nd->type),
					       nd->desc);
			break;
		}
		rc = ibtopo_fabric_add_node(&nd->node, f, nd->type, nd->guid,
					    nd->maxport, nd->desc, r->s->err);
		if (rc == IBTOPO_EINVAL || rc == IBTOPO_EPARSE)
			rc = ibtopo__src_error(r->s, nd->line,
					       "node GUID 0x%016llx listed twice",
					       (unsigned long long)nd->guid);
	}
	for (size_t i = 0; i < r->nports && !rc; i++) {
		struct ibl_port *pt = &r->ports[i];
		struct ibl_node *nd = &r->nodes[pt->node];
		struct ibtopo_port *p = NULL;

		if (ibtopo_node_port(nd->node, pt->num)) {
			rc = ibtopo__src_error(r->s, pt->line,
					       "port %u of '%s' listed twice",
					       pt->num, nd->desc);
			break;
		}
		rc = ibtopo_node_add_port(&p, f, nd->node, pt->num, r->s->err);
		if (rc)
			break;
		p->ext_num = pt->ext;
		p->state = (uint8_t)pt->state;
		p->phys_state = (uint8_t)pt->phys;
		p->width_active = (uint8_t)pt->width;
		p->speed_active = (uint16_t)pt->speed;
		if (nd->type == IBTOPO_NODE_SWITCH) {
			struct ibtopo_port *p0 = NULL;

			rc = ibtopo_node_add_port(&p0, f, nd->node, 0, r->s->err);
			if (rc)
				break;
			p0->lid = (uint16_t)pt->lid;
		} else {
			p->lid = (uint16_t)pt->lid;
			p->guid = pt->guid;
			rc = ibtopo_fabric_index_port(f, p, r->s->err);
			if (rc)
				break;
		}
		ports[i] = p;
		if (pt->lid && !by_lid[pt->lid])
			by_lid[pt->lid] = pt->node + 1;
	}
	/* each link is listed from both ends: connect it once */
	for (size_t i = 0; i < r->nports && !rc; i++) {
		struct ibl_port *pt = &r->ports[i];
		struct ibtopo_port *a = ports[i], *b;
		struct ibtopo_link *l = NULL;
		size_t peer;

		if (!pt->has_peer || a->remote)
			continue;
		peer = pt->peer_lid ? by_lid[pt->peer_lid] : 0;
		b = peer ? ibtopo_node_port(r->nodes[peer - 1].node, pt->peer_num) : NULL;
		if (!b) {
			if (!unlisted++)
				first_unlisted = pt->line;
			continue;
		}
		if (b->remote || b == a) {
			rc = ibtopo__src_error(r->s, pt->line,
				"port %u of '%s' is linked to LID %u port %u, which is linked to another port",
				pt->num, r->nodes[pt->node].desc, pt->peer_lid,
				pt->peer_num);
			break;
		}
		rc = ibtopo_fabric_connect(&l, f, a, b, r->s->err);
	}
	if (!rc && unlisted)
		ibtopo__src_warn(r->s,
			"%s:%u: %zu links to ports the output does not list (iblinkinfo --switches-only?) left out",
			r->s->name, first_unlisted, unlisted);
	if (!rc) {
		ibtopo_fabric_sort(f);
		*out = f;
		f = NULL;
	}
out_free:
	free(by_lid);
	free(ports);
	ibtopo_fabric_free(f);
	return rc;
}

static int read_iblinkinfo(struct ibtopo_fabric **out, struct ibtopo__src *s)
{
	struct ibl r = { .s = s };
	int rc;

	rc = ibtopo__src_check_text(s);
	if (!rc)
		rc = ibl_parse(&r);
	if (!rc && !r.nnodes)
		rc = ibtopo__src_error(s, s->lineno ? s->lineno : 1,
				       "no 'Switch:' or 'CA:' line");
	if (!rc)
		rc = ibl_build(&r, out);
	for (size_t i = 0; i < r.nnodes; i++)
		free(r.nodes[i].desc);
	for (size_t i = 0; i < r.nports; i++)
		free(r.ports[i].peer_desc);
	free(r.nodes);
	free(r.ports);
	return rc;
}

/* "==(" and ")==>" on one line: nothing else prints links that way */
static int ibl_line(void *arg, const char *p, size_t n)
{
	const char *mid;

	(void)arg;
	if ((n > 8 && strncmp(p, "Switch: ", 8) == 0) ||
	    (n > 4 && strncmp(p, "CA: ", 4) == 0))
		return 0;
	mid = n > 8 ? memchr(p, '=', n) : NULL;
	if (mid && (size_t)(p + n - mid) > 7 && strncmp(mid, "==(", 3) == 0)
		return 1;
	return ibtopo__line_is_record(p, n) ? -1 : 0;
}

static int detect_iblinkinfo(const char *buf, size_t len)
{
	return ibtopo__each_line(buf, len, ibl_line, NULL) > 0 ? 4 : 0;
}

const struct ibtopo__reader ibtopo__reader_iblinkinfo = {
	.format = IBTOPO_FILE_IBLINKINFO,
	.name = "iblinkinfo",
	.what = "iblinkinfo output",
	.detect = detect_iblinkinfo,
	.read = read_iblinkinfo,
};
