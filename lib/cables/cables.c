/*
 * cables.c - loading cable data into a fabric: the file's format told
 * from its content (an inventory CSV, cables_inventory.c, or ibdiagnet2's
 * db_csv, cables_dbcsv.c), its rows gathered per link, then stored, the
 * part number (cables_pn.c) filling in what a row leaves out.
 */
#include "cables/cables-load.h"
#include "findings/findings-int.h"

#include <stdlib.h>
#include <string.h>

/* The stale rows, into the caller's list, their strings into the fabric. */
static int commit_unmatched(struct ibtopo__cable_loader *ld,
			    struct ibtopo_error *err)
{
	size_t before = ld->unmatched ? ld->unmatched->count : 0;
	int rc = 0;

	for (size_t i = 0; i < ld->miss.count && !rc; i++) {
		struct ibtopo_finding f = ld->miss.items[i];
		char where[512];

		snprintf(where, sizeof(where), "%s:%u", ld->path,
			 f.num.cable_row.line);
		f.note = ibtopo__fabric_strdup(ld->fabric, where);
		f.a.node = ibtopo__fabric_strdup(ld->fabric, f.a.node);
		if (f.b.node)
			f.b.node = ibtopo__fabric_strdup(ld->fabric, f.b.node);
		if (!f.note || !f.a.node ||
		    (ld->miss.items[i].b.node && !f.b.node))
			rc = ibtopo__error_set(err, IBTOPO_ENOMEM,
					       "out of memory");
		else
			rc = ibtopo_findings_add(ld->unmatched, &f, err);
	}
	/* all or nothing for the caller's list too */
	if (rc)
		ld->unmatched->count = before;
	return rc;
}

static int apply(struct ibtopo__cable_loader *ld, struct ibtopo_error *err)
{
	for (size_t i = 0; i < ld->nlinks; i++) {
		struct ibtopo_link *l = ibtopo_fabric_link(ld->fabric, i);
		struct ibtopo__cable_pending *p = &ld->pend[l->index];
		struct ibtopo_cable c = { 0 }, dec = { 0 };
		int rc;

		if (!p->set)
			continue;
		if (l->cable)
			c = *l->cable;
		{
			struct ibtopo__cable_pending m = { .cable = c };

			ibtopo__cable_merge(&m, &p->cable, true);
			c = m.cable;
		}
		/* The part number fills in what the file leaves out. */
		if (c.part_number &&
		    ibtopo_cable_decode_part_number(&dec, c.part_number) == 0) {
			if (c.media == IBTOPO_MEDIA_UNKNOWN)
				c.media = dec.media;
			if (!c.rated_speed)
				c.rated_speed = dec.rated_speed;
			if (c.length_m <= 0)
				c.length_m = dec.length_m;
		}
		rc = ibtopo_link_set_cable(ld->fabric, l, &c, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* Parse `text` (NUL-terminated, split in place) into the fabric. */
static int cables_parse(struct ibtopo_fabric *fabric, char *text,
			const char *path, const struct ibtopo_cables_opts *opts,
			struct ibtopo_error *err)
{
	struct ibtopo__cable_loader ld = { .fabric = fabric,
					   .path = path,
					   .opts = opts };
	struct ibtopo__lines it;
	char *line, *first = NULL;
	int rc;

	if (opts && opts->version >= 2)
		ld.unmatched = opts->unmatched;
	ld.nlinks = ibtopo_fabric_link_count(fabric);
	ld.pend = calloc(ld.nlinks ? ld.nlinks : 1, sizeof(*ld.pend));
	if (!ld.pend)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	/*
	 * Detect: ibdiagnet's db_csv has START_<SECTION> lines; the
	 * inventory's first line that is not a comment is its header.
	 */
	if (strstr(text, "START_CABLE_INFO") ||
	    strncmp(text, "START_", 6) == 0 || strstr(text, "\nSTART_")) {
		/* each section is split in place: NODES_INFO from a copy */
		char *copy = strdup(text);

		rc = copy ? ibtopo__nodes_info_read_db_csv(&ld, copy, err) :
			    ibtopo__error_set(err, IBTOPO_ENOMEM,
					      "out of memory");
		free(copy);
		/* NODES_INFO without CABLE_INFO: firmware, and no cables */
		if (!rc && (strstr(text, "START_CABLE_INFO") ||
			    !strstr(text, "START_NODES_INFO")))
			rc = ibtopo__cables_read_db_csv(&ld, text, err);
	} else {
		it.p = text;
		it.no = 0;
		while ((line = ibtopo__lines_next(&it)) != NULL) {
			char *t = ibtopo__trim(line);

			if (*t && *t != '#') {
				first = t;
				break;
			}
		}
		if (!first) {
			rc = ibtopo__error_set_input(err, IBTOPO_EPARSE,
						     "'%s': empty cable file",
						     path);
			goto out_free;
		}
		rc = ibtopo__cables_read_inventory(&ld, &it, first, err);
	}
	if (rc == 0)
		rc = apply(&ld, err);
	if (rc == 0)
		rc = commit_unmatched(&ld, err);
out_free:
	ibtopo_findings_release(&ld.miss);
	free(ld.by_desc);
	free(ld.pend);
	return rc;
}

int ibtopo_cables_load(struct ibtopo_fabric *fabric, const char *path,
		       const struct ibtopo_cables_opts *opts,
		       struct ibtopo_error *err)
{
	char *text = NULL;
	int rc;

	if (!fabric || !path)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric or cable file");
	rc = ibtopo__read_text_file(&text, path, err);
	if (rc == 0)
		rc = cables_parse(fabric, text, path, opts, err);
	free(text);
	return rc;
}

int ibtopo_cables_load_buffer(struct ibtopo_fabric *fabric, const char *data,
			      size_t len, const char *name,
			      const struct ibtopo_cables_opts *opts,
			      struct ibtopo_error *err)
{
	char *text;
	int rc;

	if (!fabric || (!data && len) || !name)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric, cable data or name");
	if (len && memchr(data, '\0', len))
		return ibtopo__error_set_input(
			err, IBTOPO_EPARSE,
			"'%s': binary data, not a text file", name);
	text = malloc(len + 1);
	if (!text)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	if (len)
		memcpy(text, data, len);
	text[len] = '\0';
	rc = cables_parse(fabric, text, name, opts, err);
	free(text);
	return rc;
}
