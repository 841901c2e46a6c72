/*
 * discover-int.h - private to discover.c and discover_repair.c, the two
 * files that read libibnetdisc structures (with sweep.c, which fills
 * them). discover.c calls discover_repair.c, never the other way round.
 * Nothing else includes it.
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

/* What did not answer: a count and the first one, described. */
struct ibtopo__unanswered {
	size_t count;
	char what[256];
};

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

/**
 * The subnet managers of a live sweep: SMInfo (a Get) from every port
 * whose CapabilityMask says IsSM (a switch's port 0; a CA's port through
 * its peer, or our own port), into `fabric`, which then says they were
 * looked for. An SM that does not answer is recorded as such.
 */
int ibtopo__discover_sms(struct ibtopo_fabric *fabric, ibnd_fabric_t *in,
			 char *ca, int portnum, unsigned timeout_ms,
			 struct ibtopo__mad_tally *tally,
			 struct ibtopo_error *err);

/**
 * Count what did not answer (rules a-c at the top of discover.c) into
 * `u`, describing the first one.
 */
void ibtopo__count_unanswered(const ibnd_fabric_t *in,
			      struct ibtopo__unanswered *u);

#endif /* IBTOPO_DISCOVER_INT_H */
