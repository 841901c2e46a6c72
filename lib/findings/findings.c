/*
 * findings.c - what every finding kind shares: building a finding, its
 * name, its sentence (through the kind's descriptor), and the pieces
 * sentences are made of.
 */
#include "findings/findings-int.h"

#include <string.h>

void ibtopo__finding_init(struct ibtopo_finding *f, enum ibtopo_finding_kind kind)
{
	const struct ibtopo__finding_kind *k = ibtopo__finding_kind(kind);

	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->severity = k ? k->severity : IBTOPO_SEV_ERROR;
	f->a.port = f->b.port = f->c.port = f->d.port = -1;
}

void ibtopo__finding_init_link(struct ibtopo_finding *f,
			       enum ibtopo_finding_kind kind,
			       const struct ibtopo_link *link)
{
	ibtopo__finding_init(f, kind);
	ibtopo_end_from_port(&f->a, link->a);
	ibtopo_end_from_port(&f->b, link->b);
}

const char *ibtopo_finding_kind_name(enum ibtopo_finding_kind kind)
{
	const struct ibtopo__finding_kind *k = ibtopo__finding_kind(kind);

	return k ? k->name : "unknown";
}

int ibtopo__finding_sentence(char *buf, size_t len,
			     const struct ibtopo_finding *f,
			     const struct ibtopo__shared_names *names)
{
	const struct ibtopo__finding_kind *k;

	if (!f)
		return IBTOPO_EINVAL;
	if (!buf)
		len = 0;
	k = ibtopo__finding_kind(f->kind);
	if (!k)
		return snprintf(buf, len, "%s", ibtopo_finding_kind_name(f->kind));
	return k->sentence(buf, len, f, names);
}

int ibtopo_finding_message(char *buf, size_t len, const struct ibtopo_finding *f)
{
	return ibtopo__finding_sentence(buf, len, f, NULL);
}

const char *ibtopo__finding_subkind_name(const struct ibtopo_finding *f)
{
	const struct ibtopo__finding_kind *k = ibtopo__finding_kind(f->kind);

	return k && k->subkind_name ? k->subkind_name(f->subkind) : NULL;
}

const char *ibtopo__sentence_end(const struct ibtopo__shared_names *names,
				 const struct ibtopo_end *e, char *buf,
				 size_t len)
{
	if (e->node && *e->node && e->guid &&
	    ibtopo__shared_names_has(names, e->node))
		snprintf(buf, len, "'%s' (0x%016" PRIx64 ")", e->node, e->guid);
	else if (e->node && *e->node)
		snprintf(buf, len, "'%s'", e->node);
	else if (e->guid)
		snprintf(buf, len, "0x%016" PRIx64, e->guid);
	else
		snprintf(buf, len, "an unknown node");
	return buf;
}

const char *ibtopo__sentence_speed(unsigned bit)
{
	return bit ? ibtopo_speed_name(bit) : "an unknown speed";
}

const char *ibtopo__sentence_width(unsigned bit)
{
	return bit ? ibtopo_width_name(bit) : "an unknown width";
}
