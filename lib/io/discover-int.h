/*
 * discover-int.h - private to discover.c and discover_repair.c, the two
 * files that read libibnetdisc structures (with sweep.c, which fills
 * them): what both use. Nothing else includes it.
 */
#ifndef IBTOPO_DISCOVER_INT_H
#define IBTOPO_DISCOVER_INT_H

#include "io/io-int.h"

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>

#define IBTOPO__PHYS_LINKUP 5u /* PortInfo PortPhysicalState: LinkUp */

/* One field of an SMP answer. */
static inline unsigned ibtopo__smp_field(const uint8_t *buf, enum MAD_FIELDS f)
{
	return mad_get_field((void *)buf, 0, f);
}

/* io/discover.c */

/* A directed route as ibnetdiscover prints it ("0,1,7"), then `port`. */
void ibtopo__dr_path(char *buf, size_t len, const ib_portid_t *path, int port);
/* A port shell libibnetdisc made from NodeInfo whose PortInfo never came. */
bool ibtopo__no_port_info(const ibnd_port_t *p);

/* What did not answer: a count and the first one, described. */
struct ibtopo__unanswered {
	size_t count;
	char what[256];
};

/** Count one more; the first one is described by fmt. */
void ibtopo__unanswered_add(struct ibtopo__unanswered *u, const char *fmt, ...)
	IBTOPO__PRINTF(2, 3);

/* io/discover_repair.c */

/**
 * After a live sweep, ask once more along each node's directed route for
 * what did not answer (NodeDescription, PortInfo, a LinkUp port's peer
 * and, with `lfts`, SwitchInfo and forwarding-table blocks), through a
 * MAD port of its own on `ca` port `portnum`. What still does not answer
 * is added to `u`; when a port that was LinkUp is found down, `changed`
 * says which (else ""), and the caller may sweep again.
 */
void ibtopo__discover_repair(ibnd_fabric_t *in, char *ca, int portnum,
			     unsigned timeout_ms, struct ibtopo__lfts *lfts,
			     struct ibtopo__mad_tally *tally,
			     struct ibtopo__unanswered *u, char *changed,
			     size_t changed_len);

#endif /* IBTOPO_DISCOVER_INT_H */
