/*
 * discover_counters.c - a counters-only sweep: the port counters of a
 * fabric discovered before, read again (pma.c) on a copy of it, without
 * walking the topology; and the signs in them that it changed.
 *
 * A sweep of a fabric that did not change reads the same nodes, ports
 * and links every time: on 1,944 hosts the walk and what goes with it
 * (NodeInfo, PortInfo, NodeDescription, SMInfo, PKeyTables) is most of
 * the MADs of a sweep. What tells that it did change, without a walk:
 * - a PMA that answered before and does not now: under ibsim, a pulled
 *   cable (Unlink) leaves the switch end's PMA answering, with its
 *   counters as they were (ibsim never counts LinkDowned itself), but
 *   the far end behind it is no longer reached: its Gets time out;
 * - LinkDownedCounter grown: hardware counts each time a port's link
 *   went down, at the end that stayed reachable;
 * - LinkErrorRecoveryCounter grown: the link retrained, and may have
 *   come back narrower or slower (PortInfo, which only a walk reads);
 * - counters that were read before and are missing now (no LID, an
 *   error status);
 * - a counter below its value before: a reset (perfquery -R), or the
 *   port's LID now answers for another port (an SM gave LIDs anew), and
 *   every counter of it would be some other port's.
 * A link that comes up, a node that appears, is no sign here: the next
 * walk finds it.
 */
#include "discover/discover-int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* What the copy does not take from kept's meta: host, local port,
 * partial (the source it takes). */
static int copy_rest_of_meta(struct ibtopo_fabric *f,
			     const struct ibtopo_fabric_meta *m,
			     struct ibtopo_error *err)
{
	int rc = ibtopo_fabric_set_host(f, m->host, err);

	if (!rc)
		rc = ibtopo_fabric_set_local_port(f, m->local_ca, m->local_port,
						  err);
	if (!rc && m->partial_reason)
		rc = ibtopo_fabric_set_partial_reason(f, m->partial_reason,
						      err);
	ibtopo_fabric_set_partial(f, m->partial);
	ibtopo_fabric_set_taken_at(f, time(NULL));
	return rc;
}

/* Count a sign of port p in s, describing the first. */
static void sign(struct ibtopo_counters_signs *s, size_t *kind,
		 const struct ibtopo_port *p, const char *fmt, ...)
	IBTOPO__PRINTF(4, 5);

static void sign(struct ibtopo_counters_signs *s, size_t *kind,
		 const struct ibtopo_port *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	(*kind)++;
	if (s->signs++)
		return;
	n = snprintf(s->first, sizeof(s->first),
		     "port %u of '%s' 0x%016" PRIx64 ": ", p->num,
		     p->node->desc, p->node->guid);
	if (n < 0 || (size_t)n >= sizeof(s->first))
		return;
	va_start(ap, fmt);
	vsnprintf(s->first + n, sizeof(s->first) - (size_t)n, fmt, ap);
	va_end(ap);
}

/* Counter c read in both a and b, of the same width. */
static bool both(const struct ibtopo_counters *a,
		 const struct ibtopo_counters *b, int c)
{
	uint32_t bit = 1u << c;

	return (a->valid & bit) && (b->valid & bit) &&
	       (a->extended & bit) == (b->extended & bit);
}

/* The signs port `now` shows against the same port `was` of kept. */
static void compare_port(struct ibtopo_counters_signs *s,
			 const struct ibtopo_port *was,
			 const struct ibtopo_port *now)
{
	const struct ibtopo_counters *a = was->counters, *b = now->counters;
	enum ibtopo_counter dn = IBTOPO_CTR_LINK_DOWNED;
	enum ibtopo_counter rec = IBTOPO_CTR_LINK_ERROR_RECOVERY;

	if (!a || !a->valid)
		return; /* not read before: nothing to compare with */
	if (!b) {
		sign(s, &s->missing, now, "its counters are missing");
		return;
	}
	if (!b->valid) {
		sign(s, &s->unanswered, now, "its PMA did not answer");
		return;
	}
	if (both(a, b, dn) && b->value[dn] > a->value[dn]) {
		sign(s, &s->link_downed, now, "%s %" PRIu64 " -> %" PRIu64,
		     ibtopo_counter_name(dn), a->value[dn], b->value[dn]);
		return;
	}
	if (both(a, b, rec) && b->value[rec] > a->value[rec]) {
		sign(s, &s->link_recovered, now, "%s %" PRIu64 " -> %" PRIu64,
		     ibtopo_counter_name(rec), a->value[rec], b->value[rec]);
		return;
	}
	for (int c = 0; c < IBTOPO_CTR_COUNT_; c++)
		if (both(a, b, c) && b->value[c] < a->value[c]) {
			sign(s, &s->went_back, now,
			     "%s went back, %" PRIu64 " -> %" PRIu64,
			     ibtopo_counter_name((enum ibtopo_counter)c),
			     a->value[c], b->value[c]);
			return;
		}
}

/* Every port of `now`, a copy of `was` (same nodes, same order). */
static void compare(struct ibtopo_counters_signs *s,
		    const struct ibtopo_fabric *was,
		    const struct ibtopo_fabric *now)
{
	for (size_t i = 0; i < ibtopo_fabric_node_count(was); i++) {
		const struct ibtopo_node *a = ibtopo_fabric_node(was, i);
		const struct ibtopo_node *b =
			ibtopo_fabric_find_node(now, a->guid);

		for (unsigned p = 0; b && p <= a->nports; p++) {
			const struct ibtopo_port *pa = a->ports[p];
			const struct ibtopo_port *pb = ibtopo_node_port(b, p);

			if (pa && pb)
				compare_port(s, pa, pb);
		}
	}
}

/* What the MADs cost, into opts->stats (version 4). Releases the tally. */
static void put_stats(const struct ibtopo_discover_opts *opts,
		      struct ibtopo__mad_tally *tally, size_t lost)
{
	struct ibtopo_mad_stats *st =
		opts && opts->version >= 4 ? opts->stats : NULL;

	if (st) {
		*st = tally->st;
		st->lost = tally->st.lost + lost;
		st->worst_guid =
			ibtopo__tally_worst(tally, &st->worst_timeouts);
	}
	ibtopo__tally_release(tally);
}

/* Read the counters onto f through ca/portnum; warn of ports without. */
static int read_again(struct ibtopo_fabric *f, const struct ibtopo_fabric *kept,
		      const char *ca, int portnum,
		      const struct ibtopo_discover_opts *opts,
		      struct ibtopo__mad_tally *tally, size_t *lost,
		      struct ibtopo_error *err)
{
	unsigned retries = opts && opts->version >= 2 ? opts->retries :
							IBTOPO_DISCOVER_RETRIES;
	char what[256] = "", msg[160];
	size_t missed = 0;
	int rc;

	rc = ibtopo__pma_read(f, kept, ca, portnum, opts ? opts->timeout_ms : 0,
			      retries, tally, &missed, lost, what, sizeof(what),
			      err);
	if (rc)
		return ibtopo__error_prefix(err,
					    "port counters through '%s' "
					    "port %d",
					    ca, portnum);
	if (missed && opts && opts->version >= 2 && opts->warn) {
		snprintf(msg, sizeof(msg),
			 "%zu linked port%s without counters "
			 "(no LID, or the PMA did not answer PortCounters)",
			 missed, missed == 1 ? "" : "s");
		opts->warn(opts->warn_arg, msg);
	}
	return 0;
}

int ibtopo_fabric_discover_counters(struct ibtopo_fabric **out,
				    const struct ibtopo_fabric *kept,
				    const struct ibtopo_discover_opts *opts,
				    struct ibtopo_counters_signs *signs,
				    struct ibtopo_error *err)
{
	struct ibtopo_counters_signs none;
	struct ibtopo__mad_tally tally = { 0 };
	const struct ibtopo_fabric_meta *m;
	struct ibtopo_fabric *f = NULL;
	size_t lost = 0;
	int rc;

	if (!out || !kept)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric to read the counters of");
	*out = NULL;
	if (!signs)
		signs = &none;
	memset(signs, 0, sizeof(*signs));
	rc = ibtopo__discover_check_opts(opts, err);
	if (rc)
		return rc;
	m = ibtopo_fabric_meta(kept);
	if (!m->local_ca || !m->local_ca[0])
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "the fabric does not say which local "
					 "port it was discovered through");
	rc = ibtopo__fabric_copy(&f, kept, NULL, NULL, err);
	if (!rc)
		rc = copy_rest_of_meta(f, m, err);
	if (!rc)
		rc = read_again(f, kept, m->local_ca, (int)m->local_port, opts,
				&tally, &lost, err);
	put_stats(opts, &tally, lost);
	if (rc) {
		ibtopo_fabric_free(f);
		return rc;
	}
	compare(signs, kept, f);
	*out = f;
	return 0;
}
