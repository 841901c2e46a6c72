/*
 * cables_dbcsv.c - ibdiagnet2's db_csv: its sections ("START_<NAME>", a
 * CSV header, rows, "END_<NAME>"), read here and by the counter reader,
 * and the CABLE_INFO section's rows as cables.
 */
#include "cables/cables-load.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Empty, "N/A" or "NA": ibdiagnet's way of saying unknown. */
static bool is_blank(const char *s)
{
	return !s || !*s || strcasecmp(s, "N/A") == 0 ||
	       strcasecmp(s, "NA") == 0;
}

/* Highest speed named in "SDR/DDR/QDR/FDR/EDR/HDR" (any separators). */
static unsigned parse_speed_list(const char *s)
{
	char buf[128], *save = NULL;
	unsigned best = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, "/, ;|", &save); t;
	     t = strtok_r(NULL, "/, ;|", &save)) {
		unsigned b = ibtopo_speed_parse(t);

		if (b > best)
			best = b;
	}
	return best;
}

/*
 * Media from an SFF-8636 transmitter technology description as ibdiagnet
 * prints it ("Copper cable unequalized", "850 nm VCSEL", "1310 nm DFB").
 * An optical module with an assembly length (LengthCopperOrActive) is an
 * active optical cable; without one it is a separable transceiver.
 */
static enum ibtopo_media media_from_type(const char *type, double assembly_m)
{
	char low[128];
	size_t i;

	for (i = 0; type[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)type[i]);
	low[i] = '\0';
	if (strstr(low, "copper"))
		return strstr(low, "active") ? IBTOPO_MEDIA_ACTIVE_COPPER :
					       IBTOPO_MEDIA_PASSIVE_COPPER;
	if (strstr(low, "850") || strstr(low, "vcsel")) {
		if (assembly_m > 0)
			return IBTOPO_MEDIA_AOC;
		return IBTOPO_MEDIA_MULTIMODE;
	}
	if (strstr(low, "1310") || strstr(low, "1550") || strstr(low, "1490") ||
	    strstr(low, "dfb") || strstr(low, "eml")) {
		if (assembly_m > 0)
			return IBTOPO_MEDIA_AOC;
		return IBTOPO_MEDIA_SINGLEMODE;
	}
	return IBTOPO_MEDIA_UNKNOWN;
}

static void warn(const struct ibtopo__cable_loader *ld, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);

static void warn(const struct ibtopo__cable_loader *ld, const char *fmt, ...)
{
	char msg[1024], printable[IBTOPO_ERROR_SIZE];
	va_list ap;

	if (!ld->opts || !ld->opts->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* rows are quoted: keep the terminal clean */
	ld->opts->warn(ld->opts->warn_arg,
		       ibtopo__quote(printable, sizeof(printable), msg,
				     strlen(msg)));
}

bool ibtopo__dbcsv_section(struct ibtopo__dbcsv *s, char *text,
			   const char *name)
{
	size_t n = strlen(name);
	unsigned no = 0;
	char *line = text;

	if (n + 5 > sizeof(s->end))
		return false;
	while (line && *line) {
		char *nl = strchr(line, '\n');
		char *t = line, *e = nl ? nl : line + strlen(line);

		no++;
		while (t < e && isspace((unsigned char)*t))
			t++;
		while (e > t && isspace((unsigned char)e[-1]))
			e--;
		if ((size_t)(e - t) == n + 6 && strncmp(t, "START_", 6) == 0 &&
		    strncmp(t + 6, name, n) == 0) {
			s->p = nl ? nl + 1 : e;
			s->no = no;
			snprintf(s->end, sizeof(s->end), "END_%s", name);
			return true;
		}
		line = nl ? nl + 1 : NULL;
	}
	return false;
}

int ibtopo__dbcsv_row(struct ibtopo__dbcsv *s, char **fields, int max)
{
	struct ibtopo__lines it = { .p = s->p, .no = s->no };
	char *line;
	int n = 0;

	while ((line = ibtopo__lines_next(&it)) != NULL) {
		line = ibtopo__trim(line);
		if (strcmp(line, s->end) == 0) {
			line = NULL;
			break;
		}
		if (*line)
			break;
	}
	s->p = line ? it.p : NULL;
	s->no = it.no;
	if (line)
		n = ibtopo__csv_split(line, fields, max);
	return n;
}

/*
 * A section read by its header's names: names[k] is column k's (found in
 * any case, the first of a name counts), lacks() names the columns a
 * header cannot do without when it has not them (NULL: it has all), and
 * row() takes each row after the header, v[k] its value of column k (""
 * where the row or the header has none).
 */
#define TABLE_MAX_COLS 16

struct dbcsv_table {
	const char *const *names;
	int ncols;
	const char *(*lacks)(const int *colpos);
	int (*row)(struct ibtopo__cable_loader *ld, const char *v[],
		   unsigned line, void *ctx, struct ibtopo_error *err);
};

/* Each row of section `sec` through t->row(); its first failure. */
static int read_table(struct ibtopo__cable_loader *ld,
		      struct ibtopo__dbcsv *sec, const char *section,
		      const struct dbcsv_table *t, void *ctx,
		      struct ibtopo_error *err)
{
	char *fields[IBTOPO__CABLE_MAX_FIELDS];
	int colpos[TABLE_MAX_COLS], n, rc = 0;
	bool header = false;

	for (int i = 0; i < t->ncols; i++)
		colpos[i] = -1;
	while (!rc && (n = ibtopo__dbcsv_row(sec, fields,
					     IBTOPO__CABLE_MAX_FIELDS)) != 0) {
		const char *v[TABLE_MAX_COLS], *lacks;

		if (n < 0)
			return ibtopo__error_set_input(
				err, IBTOPO_EPARSE, "%s:%u: unterminated quote",
				ld->path, sec->no);
		if (!header) {
			for (int i = 0; i < n; i++)
				for (int k = 0; k < t->ncols; k++)
					if (strcasecmp(fields[i],
						       t->names[k]) == 0 &&
					    colpos[k] < 0)
						colpos[k] = i;
			lacks = t->lacks(colpos);
			if (lacks)
				return ibtopo__error_set_input(
					err, IBTOPO_EPARSE,
					"%s:%u: the %s header lacks %s",
					ld->path, sec->no, section, lacks);
			header = true;
			continue;
		}
		for (int i = 0; i < t->ncols; i++)
			v[i] = colpos[i] >= 0 && colpos[i] < n ?
				       fields[colpos[i]] :
				       "";
		rc = t->row(ld, v, sec->no, ctx, err);
	}
	return rc;
}

enum db_col {
	DB_NODE_GUID,
	DB_PORT_GUID,
	DB_PORT_NUM,
	DB_VENDOR,
	DB_PN,
	DB_SN,
	DB_LENGTH,
	DB_TYPE,
	DB_SPEEDS,
	DB_COUNT_
};

static const char *const db_names[DB_COUNT_] = {
	[DB_NODE_GUID] = "NodeGuid",
	[DB_PORT_GUID] = "PortGuid",
	[DB_PORT_NUM] = "PortNum",
	[DB_VENDOR] = "Vendor",
	[DB_PN] = "PN",
	[DB_SN] = "SN",
	[DB_LENGTH] = "LengthCopperOrActive",
	[DB_TYPE] = "TypeDesc",
	[DB_SPEEDS] = "SupportedSpeedDesc",
};

_Static_assert(DB_COUNT_ <= TABLE_MAX_COLS, "CABLE_INFO columns");

static const char *cable_info_lacks(const int *colpos)
{
	if (colpos[DB_PORT_NUM] < 0 ||
	    (colpos[DB_NODE_GUID] < 0 && colpos[DB_PORT_GUID] < 0))
		return "PortNum or NodeGuid";
	return NULL;
}

/* Rows whose ports have no link: how many, and the first's line. */
struct cable_skips {
	unsigned skipped, first_skipped;
};

/* A CABLE_INFO row's cable onto its port's link. */
static int cable_info_row(struct ibtopo__cable_loader *ld, const char *v[],
			  unsigned line, void *ctx, struct ibtopo_error *err)
{
	struct cable_skips *sk = ctx;
	struct ibtopo_node *node = NULL;
	struct ibtopo_port *port;
	struct ibtopo_cable c = { 0 };
	double assembly = 0;
	uint64_t guid;
	unsigned num;

	if (!ibtopo__cable_parse_port(v[DB_PORT_NUM], &num))
		return ibtopo__error_set_input(err, IBTOPO_EPARSE,
					       "%s:%u: bad PortNum '%s'",
					       ld->path, line, v[DB_PORT_NUM]);
	if (*v[DB_NODE_GUID]) {
		if (!ibtopo__cable_parse_guid(v[DB_NODE_GUID], &guid))
			return ibtopo__error_set_input(
				err, IBTOPO_EPARSE, "%s:%u: bad NodeGuid '%s'",
				ld->path, line, v[DB_NODE_GUID]);
		node = ibtopo_fabric_find_node(ld->fabric, guid);
	}
	if (!node && *v[DB_PORT_GUID]) {
		if (!ibtopo__cable_parse_guid(v[DB_PORT_GUID], &guid))
			return ibtopo__error_set_input(
				err, IBTOPO_EPARSE, "%s:%u: bad PortGuid '%s'",
				ld->path, line, v[DB_PORT_GUID]);
		port = ibtopo_fabric_find_port(ld->fabric, guid);
		node = port ? port->node : NULL;
	}
	port = ibtopo_node_port(node, num);
	if (!port || !port->link) {
		if (!sk->skipped++)
			sk->first_skipped = line;
		return 0;
	}
	if (!is_blank(v[DB_LENGTH]) &&
	    !ibtopo__cable_parse_length(v[DB_LENGTH], &assembly))
		return ibtopo__error_set_input(
			err, IBTOPO_EPARSE,
			"%s:%u: bad LengthCopperOrActive '%s'", ld->path, line,
			v[DB_LENGTH]);
	c.length_m = assembly;
	if (!is_blank(v[DB_TYPE]))
		c.media = media_from_type(v[DB_TYPE], assembly);
	if (!is_blank(v[DB_SPEEDS]))
		c.rated_speed = parse_speed_list(v[DB_SPEEDS]);
	c.vendor = is_blank(v[DB_VENDOR]) ? NULL : (char *)v[DB_VENDOR];
	c.part_number = is_blank(v[DB_PN]) ? NULL : (char *)v[DB_PN];
	c.serial = is_blank(v[DB_SN]) ? NULL : (char *)v[DB_SN];
	ibtopo__cable_merge(&ld->pend[port->link->index], &c, false);
	return 0;
}

int ibtopo__cables_read_db_csv(struct ibtopo__cable_loader *ld, char *text,
			       struct ibtopo_error *err)
{
	static const struct dbcsv_table t = { db_names, DB_COUNT_,
					      cable_info_lacks,
					      cable_info_row };
	struct cable_skips sk = { 0, 0 };
	struct ibtopo__dbcsv sec;
	int rc;

	if (!ibtopo__dbcsv_section(&sec, text, "CABLE_INFO"))
		return ibtopo__error_set_input(
			err, IBTOPO_EPARSE,
			"'%s': the ibdiagnet db_csv file has no CABLE_INFO section",
			ld->path);
	rc = read_table(ld, &sec, "CABLE_INFO", &t, &sk, err);
	if (rc)
		return rc;
	if (sk.skipped)
		warn(ld,
		     "%s:%u: %u CABLE_INFO rows skipped: their ports have no link in this fabric",
		     ld->path, sk.first_skipped, sk.skipped);
	return 0;
}

/* A db_csv number: "0x1b" (as NODES_INFO writes them) or decimal. */
static bool parse_num(const char *s, unsigned long max, unsigned *out)
{
	char *end;
	unsigned long v;

	if (is_blank(s))
		return false;
	v = strtoul(s, &end, 0);
	if (*end || v > max)
		return false;
	*out = (unsigned)v;
	return true;
}

enum ni_col {
	NI_GUID,
	NI_PSID,
	NI_EMAJOR,
	NI_EMINOR,
	NI_ESUB,
	NI_MAJOR,
	NI_MINOR,
	NI_SUB,
	NI_DEVID,
	NI_COUNT_
};

static const char *const ni_names[NI_COUNT_] = {
	[NI_GUID] = "NodeGUID",
	[NI_PSID] = "FWInfo_PSID",
	[NI_EMAJOR] = "FWInfo_Extended_Major",
	[NI_EMINOR] = "FWInfo_Extended_Minor",
	[NI_ESUB] = "FWInfo_Extended_SubMinor",
	[NI_MAJOR] = "FWInfo_Major",
	[NI_MINOR] = "FWInfo_Minor",
	[NI_SUB] = "FWInfo_SubMinor",
	[NI_DEVID] = "HWInfo_DeviceID",
};

/*
 * A NODES_INFO row's firmware onto its node: the extended version where
 * the row has one (minor and subminor above 255), else the short one.
 */
static int nodes_info_row(struct ibtopo__cable_loader *ld, const char *v[],
			  unsigned line, void *ctx, struct ibtopo_error *err)
{
	unsigned ver[3], devid;
	int base = NI_EMAJOR;
	uint64_t guid;
	struct ibtopo_node *node;

	(void)ctx;
	if (!ibtopo__cable_parse_guid(v[NI_GUID], &guid))
		return ibtopo__error_set_input(err, IBTOPO_EPARSE,
					       "%s:%u: bad NodeGUID '%s'",
					       ld->path, line, v[NI_GUID]);
	node = ibtopo_fabric_find_node(ld->fabric, guid);
	if (!node)
		return 0;
	if (is_blank(v[NI_EMAJOR]) || strcmp(v[NI_EMAJOR], "0x0") == 0)
		base = NI_MAJOR;
	for (int i = 0; i < 3; i++)
		if (!parse_num(v[base + i], 0xffff, &ver[i]))
			return 0; /* no firmware version in this row */
	if (!ver[0] && !ver[1] && !ver[2])
		return 0;
	/* the model, where the fabric file did not say it */
	if (!node->device_id && parse_num(v[NI_DEVID], 0xffff, &devid))
		node->device_id = devid;
	return ibtopo_node_set_firmware(
		ld->fabric, node, ver[0], ver[1], ver[2],
		is_blank(v[NI_PSID]) ? NULL : v[NI_PSID], err);
}

_Static_assert(NI_COUNT_ <= TABLE_MAX_COLS, "NODES_INFO columns");

static const char *nodes_info_lacks(const int *colpos)
{
	return colpos[NI_GUID] < 0 ? "NodeGUID" : NULL;
}

int ibtopo__nodes_info_read_db_csv(struct ibtopo__cable_loader *ld, char *text,
				   struct ibtopo_error *err)
{
	static const struct dbcsv_table t = { ni_names, NI_COUNT_,
					      nodes_info_lacks,
					      nodes_info_row };
	struct ibtopo__dbcsv sec;

	if (!ibtopo__dbcsv_section(&sec, text, "NODES_INFO"))
		return 0;
	return read_table(ld, &sec, "NODES_INFO", &t, NULL, err);
}
