/*
 * discover-int.h - private to live discovery (lib/discover/), the only
 * files that include libibnetdisc and libibmad:
 *   discover.c         the public entry: a sweep, or a cache file, into a
 *                      fabric
 *   discover_repair.c  what a lossy sweep left out, asked again
 *   discover_local.c   the local port's subnet and SM, before the sweep
 *   discover_counters.c  a counters-only sweep of a fabric discovered before
 *   sweep.c            the walk itself, SMP Gets through a window
 *   pma.c              port counters, PMA Gets through a window
 *   gets.c             SMP or SA Gets through a window, for what is read
 *                      after the walk (sweep_pkey.c, discover_mcast.c)
 * discover.c calls discover_repair.c, never the other way round.
 */
#ifndef IBTOPO_DISCOVER_INT_H
#define IBTOPO_DISCOVER_INT_H

#include "base/base-int.h"

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

/* sweep.c: the live sweep, for discover.c (see there) */
struct ibnd_fabric;
struct ibnd_config;
struct ibnd_node;

/* LFT entries per LinearForwardingTable block (IBA 14.2.5.10) */
#define IBTOPO__LFT_BLOCK 64

/* One switch's forwarding table as read live (discover --routes). */
struct ibtopo__lft_read {
	struct ibnd_node *node;
	unsigned top;	  /* LinearFDBTop from SwitchInfo */
	unsigned blocks;  /* top / IBTOPO__LFT_BLOCK + 1 */
	unsigned missing; /* blocks that did not answer */
	uint8_t *port;	  /* blocks * IBTOPO__LFT_BLOCK entries */
	uint8_t *have;	  /* per block: answered */
};

/*
 * The tables of every switch that answered SwitchInfo, read after the
 * walk through the sweep's own SMP window. Zero-initialized is empty.
 */
struct ibtopo__lfts {
	struct ibtopo__lft_read *sw;
	size_t count;
	size_t next, next_block; /* the next block to ask for */
	size_t gets;		 /* LinearForwardingTable Gets sent */
	double seconds;		 /* spent reading them */
};

/*
 * The MADs in flight, AIMD as TCP's congestion window: halved on a loss
 * (once per window's worth of MADs, floor 1), one more for every `cur`
 * answers, up to `max`. sweep.c and pma.c each keep one.
 */
struct ibtopo__window {
	unsigned max, cur, min; /* allowed, now, the lowest reached */
	unsigned acks;		/* answers since it last grew */
	unsigned long seq;	/* MADs sent so far: each one's number */
	unsigned long cut_at;	/* seq when it was last halved */
};

void ibtopo__window_init(struct ibtopo__window *w, unsigned max);
/** One MAD goes out: its sequence number (for ibtopo__window_loss()). */
unsigned long ibtopo__window_sent(struct ibtopo__window *w);
void ibtopo__window_answer(struct ibtopo__window *w);
/** MAD number `seq` timed out. */
void ibtopo__window_loss(struct ibtopo__window *w, unsigned long seq);
/** The timeout of a query's try number `tries` (0: the first send). */
unsigned ibtopo__retry_timeout(unsigned base_ms, unsigned tries);

/*
 * What asking per MAD cost, over a discovery: the public counts and the
 * timeouts per node (GUID), to name a node that lost far more than the
 * others. Zero-initialized is empty.
 */
struct ibtopo__mad_tally {
	struct ibtopo_mad_stats st;
	struct ibtopo__blame {
		uint64_t guid;
		size_t timeouts;
	} * blame;
	size_t nblame, ablame;
};

/** A query to node `guid` timed out (guid 0: not known). */
void ibtopo__tally_timeout(struct ibtopo__mad_tally *t, uint64_t guid);
/** Fold a window's lowest value into t->st. */
void ibtopo__tally_window(struct ibtopo__mad_tally *t,
			  const struct ibtopo__window *w);
/**
 * The node that timed out far more than any other (at least 8 times, and
 * 3 times as often as the next): its GUID and count, or 0.
 */
uint64_t ibtopo__tally_worst(const struct ibtopo__mad_tally *t,
			     size_t *timeouts);
void ibtopo__tally_release(struct ibtopo__mad_tally *t);

/** Add a switch (SwitchInfo known) to read; -1 when out of memory. */
int ibtopo__lfts_add(struct ibtopo__lfts *l, struct ibnd_node *node,
		     unsigned top);
void ibtopo__lfts_release(struct ibtopo__lfts *l);
/** Seconds on the monotonic clock. */
double ibtopo__mono_now(void);
/**
 * Walk the fabric through local `ca` port `portnum` into a new libibnetdisc
 * fabric (free it with ibtopo__sweep_free(), never ibnd_destroy_fabric()).
 * An SMP that times out is sent again, up to cfg->retries times, with a
 * timeout that doubles (ibtopo__retry_timeout()); what still does not
 * answer is left out, counted in tally->st.lost. With `lfts`
 * (may be NULL), once the walk is done, every switch's LinearFDBTop is
 * taken from its SwitchInfo and its LinearForwardingTable blocks
 * 0..top/64 are asked for through the same window; blocks that do not
 * answer are counted in each switch's `missing`.
 */
int ibtopo__sweep(struct ibnd_fabric **out, const char *ca, int portnum,
		  const struct ibnd_config *cfg, struct ibtopo__lfts *lfts,
		  struct ibtopo__mad_tally *tally, struct ibtopo_error *err);
void ibtopo__sweep_free(struct ibnd_fabric *fabric);

/* discover.c: the options of ibtopo_fabric_discover() and of
 * ibtopo_fabric_discover_counters(), checked: 0 or IBTOPO_EINVAL. */
int ibtopo__discover_check_opts(const struct ibtopo_discover_opts *opts,
				struct ibtopo_error *err);

/* discover_local.c: where a discovery was made from (see there) */
struct ibtopo__local {
	uint64_t prefix;  /* PortInfo GidPrefix of the local port */
	uint16_t sm_lid;  /* its MasterSMLID */
	uint64_t sm_guid; /* SMInfo GUID of that SM */
};
/**
 * Ask the local `ca` port `portnum` for its subnet prefix and master SM
 * LID (PortInfo Get) and the SM for its port GUID (SMInfo Get): before
 * the sweep, so that the sweep's SMPs keep their numbers. What does not
 * answer stays 0.
 */
void ibtopo__discover_local(struct ibtopo__local *out, const char *ca,
			    int portnum, unsigned timeout_ms);

/* pma.c: port counters of a discovered fabric (see there) */
/* Each switch's PortCounters summed over its ports (AllPortSelect), as a
 * counters-only sweep read them, by node index. */
struct ibtopo__pma_sums {
	size_t n;
	bool *have;
	uint64_t (*v)[IBTOPO_CTR_COUNT_];
};
/**
 * Read PortCounters (and PortCountersExtended where ClassPortInfo says
 * so) of every linked port with a LID through local `ca` port `portnum`,
 * Gets only, and attach them to the ports. *out_missed counts the linked
 * ports left without counters (no LID, or their PMA answered with an
 * error status). A MAD that times out is sent again, up to `retries`
 * times; *out_lost counts the queries that never answered, and `lost`
 * describes the first (a port and an attribute). With `kept` (a copy of
 * which `fabric` is, the sweep before; NULL: none), a counters-only
 * sweep: each switch's AllPortSelect sums are read first and kept on
 * `fabric` (struct ibtopo__pma_sums, ibtopo__fabric_aux()), and a
 * switch whose sums did not move since kept's has its ports'
 * PortCounters from kept, and only PortCountersExtended asked (see
 * pma.c).
 */
int ibtopo__pma_read(struct ibtopo_fabric *fabric,
		     const struct ibtopo_fabric *kept, const char *ca,
		     int portnum, unsigned timeout_ms, unsigned retries,
		     struct ibtopo__mad_tally *tally, size_t *out_missed,
		     size_t *out_lost, char *lost, size_t lost_len,
		     struct ibtopo_error *err);

/* discover_repair.c */

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
 * looked for. An SM that does not answer is recorded as such. A master's
 * SMInfo is read again 0.1 s after the first reads (its ActCount must
 * have grown); `meanwhile(arg, err)` (may be NULL) runs in that pause,
 * and its error is returned.
 */
typedef int ibtopo__meanwhile_fn(void *arg, struct ibtopo_error *err);
int ibtopo__discover_sms(struct ibtopo_fabric *fabric, ibnd_fabric_t *in,
			 char *ca, int portnum, unsigned timeout_ms,
			 struct ibtopo__mad_tally *tally,
			 ibtopo__meanwhile_fn *meanwhile, void *arg,
			 struct ibtopo_error *err);

/* discover/sweep_pkey.c */

/**
 * The PKeyTables of a live sweep (Gets only; see there): every CA port
 * that is up, every switch port that enforces partitions, onto their
 * ports in `fabric`; a table with a block that did not answer stays
 * unread.
 */
int ibtopo__sweep_pkeys(struct ibtopo_fabric *fabric, const ibnd_fabric_t *in,
			const char *ca, int portnum, unsigned timeout_ms,
			unsigned retries, struct ibtopo__mad_tally *tally,
			struct ibtopo_error *err);

/**
 * Count what did not answer (rules a-c at the top of discover.c) into
 * `u`, describing the first one.
 */
void ibtopo__count_unanswered(const ibnd_fabric_t *in,
			      struct ibtopo__unanswered *u);

/* discover/gets.c: a batch of Gets through a window (see there) */

/* One Get: where to, what, and the caller's tag. */
struct ibtopo__get {
	ib_portid_t to;	    /* a directed route (SMP), or the SA's LID */
	unsigned attr, mod; /* attribute and modifier */
	uint64_t comp;	    /* SA: the component mask */
	const uint8_t *rec; /* SA: the record (IB_SA_DATA_SIZE bytes) */
	uint64_t guid;	    /* the node asked, blamed for timeouts; 0 */
	size_t tag;	    /* the caller's */
};

/**
 * A Get ended: `mad` its answer (`len` MAD bytes: an SA table reassembled
 * from its segments is longer than one MAD), or NULL when none came
 * after every retry or it came with an error status. Nonzero stops the
 * batch: an IBTOPO_* error the caller described in its own `err`, which
 * ibtopo__gets_run() returns as it is.
 */
typedef int ibtopo__got_fn(void *arg, const struct ibtopo__get *get,
			   const uint8_t *mad, size_t len);

/* How to send a batch. */
struct ibtopo__gets {
	const char *ca;
	int portnum;
	bool sa;	     /* SA GetTables, else directed-route SMPs */
	uint64_t sm_key;     /* SA: the SM_Key sent */
	unsigned timeout_ms; /* of a first try */
	unsigned retries;    /* sent again after a timeout, at most */
	unsigned window;     /* MADs in flight at most (up to 64) */
	const char *what;    /* names the MADs in an error */
	struct ibtopo__mad_tally *tally;
	ibtopo__got_fn *got;
	void *arg;
};

/**
 * Settings to send through `ca` port `portnum`, `window` in flight,
 * counted in `tally`; the rest 0 (the default timeout, no retry, SMPs)
 * for the caller to set, with `got` and `arg`.
 */
void ibtopo__gets_init(struct ibtopo__gets *how, const char *ca, int portnum,
		       unsigned window, struct ibtopo__mad_tally *tally);

/**
 * Send `n` Gets through a MAD port of their own, at most `how->window`
 * in flight, and call how->got once for each; 0, or an error when the
 * port cannot be opened, a send or receive fails, or memory runs out.
 */
int ibtopo__gets_run(const struct ibtopo__gets *how,
		     const struct ibtopo__get *gets, size_t n,
		     struct ibtopo_error *err);

/* discover/discover_mcast.c */

/** What reading the multicast forwarding cost. */
struct ibtopo__mcast_read {
	size_t switches;   /* tables read */
	size_t gets, lost; /* MulticastForwardingTable Gets, unanswered */
	size_t sa_mads;	   /* SA MCMemberRecord GetTables */
	double seconds;
};

/**
 * The multicast groups and members from the SA (when one answers at the
 * fabric's SM LID) and every switch's multicast forwarding table, with
 * Gets through a MAD port of its own on `ca` port `portnum`, into
 * `fabric`; what it cost into `st`.
 */
int ibtopo__discover_mcast(struct ibtopo_fabric *fabric, ibnd_fabric_t *in,
			   char *ca, int portnum, unsigned timeout_ms,
			   unsigned retries, struct ibtopo__mad_tally *tally,
			   struct ibtopo__mcast_read *st,
			   struct ibtopo_error *err);

#endif /* IBTOPO_DISCOVER_INT_H */
