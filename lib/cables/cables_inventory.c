/*
 * cables_inventory.c - the cable inventory CSV: a header naming its
 * columns (node_a, port_a, node_b, port_b, media, length_m, ...), then a
 * row per cable, its ends named as every node name is read.
 */
#include "cables/cables-load.h"
#include "findings/findings-int.h"

#include <string.h>
#include <strings.h>

/* ibtopo_media_name() names, plus the usual abbreviations. */
static bool parse_media(const char *s, enum ibtopo_media *out)
{
	static const struct {
		const char *name;
		enum ibtopo_media media;
	} aliases[] = {
		{ "dac", IBTOPO_MEDIA_PASSIVE_COPPER },
		{ "acc", IBTOPO_MEDIA_ACTIVE_COPPER },
		{ "aec", IBTOPO_MEDIA_ACTIVE_COPPER },
		{ "mmf", IBTOPO_MEDIA_MULTIMODE },
		{ "smf", IBTOPO_MEDIA_SINGLEMODE },
	};
	enum ibtopo_media m = ibtopo_media_parse(s);

	if (m == IBTOPO_MEDIA_UNKNOWN)
		for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(aliases); i++)
			if (strcasecmp(s, aliases[i].name) == 0)
				m = aliases[i].media;
	if (m == IBTOPO_MEDIA_UNKNOWN && strcasecmp(s, "unknown") != 0)
		return false;
	*out = m;
	return true;
}

/*
 * A node named in the inventory, as every node name is read
 * (ibtopo_fabric_find_node_name()): a "0x" node or port GUID, else a
 * description only one node has. Returns 0 or an error naming the line.
 */
static int find_node(struct ibtopo_node **out, struct ibtopo__cable_loader *ld,
		     unsigned line, const char *name, struct ibtopo_error *err)
{
	struct ibtopo__node_lookup how = { 0 };
	char q[IBTOPO__QUOTE_MAX];
	uint64_t guid;
	int rc;

	*out = NULL;
	if (!ld->by_desc &&
	    ibtopo__fabric_desc_index(&ld->by_desc, &ld->nnodes, ld->fabric))
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	how.by_desc = ld->by_desc;
	how.nby_desc = ld->nnodes;
	rc = ibtopo__fabric_lookup(out, ld->fabric, name, &how, err);
	if (rc == IBTOPO_ENOTFOUND && ld->unmatched) {
		/* a stale row, not an error: the caller makes it a finding */
		if (err) {
			err->code = 0;
			err->message[0] = '\0';
		}
		return IBTOPO_ENOTFOUND;
	}
	if (rc == IBTOPO_ENOTFOUND && ibtopo__cable_parse_guid(name, &guid))
		return ibtopo__error_set_input(
			err, IBTOPO_EPARSE,
			"%s:%u: no node or port with GUID %s in the fabric",
			ld->path, line,
			ibtopo__quote(q, sizeof(q), name, strlen(name)));
	if (rc == IBTOPO_ENOMEM || !rc)
		return rc;
	/* not found, or several nodes of that name */
	if (err)
		err->code = IBTOPO_EPARSE;
	ibtopo__error_prefix(err, "%s:%u", ld->path, line);
	return IBTOPO_EPARSE;
}

/*
 * A stale row: the finding, its names still in the file buffer until
 * commit_unmatched() copies them into the fabric.
 */
static int add_unmatched(struct ibtopo__cable_loader *ld, unsigned line,
			 enum ibtopo_cable_row_miss miss, const char *node_a,
			 const struct ibtopo_node *na, unsigned port_a,
			 const char *node_b, unsigned port_b,
			 const struct ibtopo_port *peer,
			 struct ibtopo_error *err)
{
	struct ibtopo_finding f;

	ibtopo__finding_init(&f, IBTOPO_FIND_CABLE_ROW_UNMATCHED);
	f.subkind = (int)miss;
	f.a.node = node_a;
	f.a.guid = na ? na->guid : 0;
	f.a.port = (int)port_a;
	if (node_b && *node_b) {
		f.b.node = node_b;
		f.b.port = (int)port_b;
	}
	if (peer)
		ibtopo_end_from_port(&f.c, peer);
	f.num.cable_row.line = line;
	return ibtopo_findings_add(&ld->miss, &f, err);
}

enum inv_col {
	COL_NODE_A,
	COL_PORT_A,
	COL_NODE_B,
	COL_PORT_B,
	COL_MEDIA,
	COL_LENGTH,
	COL_PN,
	COL_RATED,
	COL_VENDOR,
	COL_SERIAL,
	COL_COUNT_
};

static const struct {
	const char *name;
	enum inv_col col;
} inv_names[] = {
	{ "node_a", COL_NODE_A },     { "port_a", COL_PORT_A },
	{ "node_b", COL_NODE_B },     { "port_b", COL_PORT_B },
	{ "media", COL_MEDIA },	      { "length_m", COL_LENGTH },
	{ "part_number", COL_PN },    { "pn", COL_PN },
	{ "rated_speed", COL_RATED }, { "vendor", COL_VENDOR },
	{ "serial", COL_SERIAL },     { "sn", COL_SERIAL },
};

/*
 * The values of a row, checked before its names are looked up: a stale
 * row with a bad number is still a malformed file. False: err is set.
 */
static bool row_values_parse(struct ibtopo__cable_loader *ld, unsigned line,
			     const char *const *v, struct ibtopo_cable *c,
			     struct ibtopo_error *err)
{
	if (*v[COL_MEDIA] && !parse_media(v[COL_MEDIA], &c->media)) {
		ibtopo__error_set_input(
			err, IBTOPO_EPARSE,
			"%s:%u: unknown media '%s' (passive-copper, active-copper, aoc, multimode, singlemode)",
			ld->path, line, v[COL_MEDIA]);
		return false;
	}
	if (*v[COL_LENGTH] &&
	    !ibtopo__cable_parse_length(v[COL_LENGTH], &c->length_m)) {
		ibtopo__error_set_input(err, IBTOPO_EPARSE,
					"%s:%u: bad length_m '%s'", ld->path,
					line, v[COL_LENGTH]);
		return false;
	}
	if (*v[COL_RATED]) {
		c->rated_speed = ibtopo_speed_parse(v[COL_RATED]);
		if (!c->rated_speed) {
			ibtopo__error_set_input(
				err, IBTOPO_EPARSE,
				"%s:%u: unknown rated_speed '%s'", ld->path,
				line, v[COL_RATED]);
			return false;
		}
	}
	c->part_number = *v[COL_PN] ? (char *)v[COL_PN] : NULL;
	c->vendor = *v[COL_VENDOR] ? (char *)v[COL_VENDOR] : NULL;
	c->serial = *v[COL_SERIAL] ? (char *)v[COL_SERIAL] : NULL;
	return true;
}

int ibtopo__cables_read_inventory(struct ibtopo__cable_loader *ld,
				  struct ibtopo__lines *it, char *header,
				  struct ibtopo_error *err)
{
	char *fields[IBTOPO__CABLE_MAX_FIELDS], *line;
	int colpos[COL_COUNT_], n;

	for (int i = 0; i < COL_COUNT_; i++)
		colpos[i] = -1;
	n = ibtopo__csv_split(header, fields, IBTOPO__CABLE_MAX_FIELDS);
	if (n < 0)
		return ibtopo__error_set_input(err, IBTOPO_EPARSE,
					       "%s:%u: unterminated quote",
					       ld->path, it->no);
	for (int i = 0; i < n; i++)
		for (size_t k = 0; k < IBTOPO__ARRAY_SIZE(inv_names); k++)
			if (strcasecmp(fields[i], inv_names[k].name) == 0 &&
			    colpos[inv_names[k].col] < 0)
				colpos[inv_names[k].col] = i;
	if (colpos[COL_NODE_A] < 0 || colpos[COL_PORT_A] < 0)
		return ibtopo__error_set_input(
			err, IBTOPO_EPARSE,
			"%s:%u: the header lacks node_a or port_a (expected node_a,port_a,node_b,port_b,media,length_m,part_number)",
			ld->path, it->no);

	while ((line = ibtopo__lines_next(it)) != NULL) {
		const char *v[COL_COUNT_];
		struct ibtopo_node *na, *nb;
		struct ibtopo_port *pa;
		struct ibtopo_cable c = { 0 };
		unsigned port_a, port_b;
		int rc;

		line = ibtopo__trim(line);
		if (!*line || *line == '#')
			continue;
		n = ibtopo__csv_split(line, fields, IBTOPO__CABLE_MAX_FIELDS);
		if (n < 0)
			return ibtopo__error_set_input(
				err, IBTOPO_EPARSE, "%s:%u: unterminated quote",
				ld->path, it->no);
		for (int i = 0; i < COL_COUNT_; i++)
			v[i] = colpos[i] >= 0 && colpos[i] < n ?
				       fields[colpos[i]] :
				       "";

		if (!*v[COL_NODE_A] ||
		    !ibtopo__cable_parse_port(v[COL_PORT_A], &port_a))
			return ibtopo__error_set_input(
				err, IBTOPO_EPARSE, "%s:%u: %s", ld->path,
				it->no,
				!*v[COL_NODE_A] ?
					"node_a is empty" :
					"port_a is not a port number");
		port_b = 0;
		if ((*v[COL_NODE_B] || *v[COL_PORT_B]) &&
		    (!*v[COL_NODE_B] ||
		     !ibtopo__cable_parse_port(v[COL_PORT_B], &port_b)))
			return ibtopo__error_set_input(
				err, IBTOPO_EPARSE,
				"%s:%u: node_b and port_b go together (a node and a port number)",
				ld->path, it->no);
		if (!row_values_parse(ld, it->no, v, &c, err))
			return err ? err->code : IBTOPO_EPARSE;
		rc = find_node(&na, ld, it->no, v[COL_NODE_A], err);
		if (rc == IBTOPO_ENOTFOUND) {
			rc = add_unmatched(ld, it->no, IBTOPO_CABLE_ROW_NO_NODE,
					   v[COL_NODE_A], NULL, port_a,
					   v[COL_NODE_B], port_b, NULL, err);
			if (rc)
				return rc;
			continue;
		}
		if (rc)
			return rc;
		pa = ibtopo_node_port(na, port_a);
		if ((!pa || !pa->link || !pa->remote) && ld->unmatched) {
			rc = add_unmatched(ld, it->no, IBTOPO_CABLE_ROW_NO_LINK,
					   v[COL_NODE_A], na, port_a,
					   v[COL_NODE_B], port_b, NULL, err);
			if (rc)
				return rc;
			continue;
		}
		if (!pa || !pa->link || !pa->remote)
			return ibtopo__error_set_input(
				err, IBTOPO_EPARSE,
				"%s:%u: port %u of '%s' has no link in the fabric",
				ld->path, it->no, port_a, na->desc);
		if (*v[COL_NODE_B]) {
			rc = find_node(&nb, ld, it->no, v[COL_NODE_B], err);
			if (rc == IBTOPO_ENOTFOUND ||
			    (rc == 0 && ld->unmatched &&
			     (pa->remote->node != nb ||
			      pa->remote->num != port_b))) {
				rc = add_unmatched(
					ld, it->no,
					rc ? IBTOPO_CABLE_ROW_NO_PEER_NODE :
					     IBTOPO_CABLE_ROW_OTHER_PEER,
					v[COL_NODE_A], na, port_a,
					v[COL_NODE_B], port_b, pa->remote, err);
				if (rc)
					return rc;
				continue;
			}
			if (rc)
				return rc;
			if (pa->remote->node != nb || pa->remote->num != port_b)
				return ibtopo__error_set_input(
					err, IBTOPO_EPARSE,
					"%s:%u: port %u of '%s' is linked to port %u of '%s', not to port %u of '%s'",
					ld->path, it->no, port_a, na->desc,
					pa->remote->num, pa->remote->node->desc,
					port_b, nb->desc);
		}
		ibtopo__cable_merge(&ld->pend[pa->link->index], &c, true);
	}
	return 0;
}
