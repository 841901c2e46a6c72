/*
 * ibtopo/discover.h - discovery (libibnetdisc) and cache files. Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_DISCOVER_H
#define IBTOPO_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ibtopo_discover_flags {
	IBTOPO_DISCOVER_PARTIAL = 1u << 0,	/* keep an incomplete fabric */
	/* read the PMA counters of every linked port (Gets only) */
	IBTOPO_DISCOVER_COUNTERS = 1u << 1,
	/* read every switch's forwarding table (LFT; Gets only) */
	IBTOPO_DISCOVER_ROUTES = 1u << 2,
};

/*
 * What a discovery's MADs cost (SMPs of the sweep and the tables, and
 * PMA Gets): filled by ibtopo_fabric_discover() when opts->stats is set.
 */
struct ibtopo_mad_stats {
	size_t sent;		/* MADs sent, every try counted */
	size_t asked_again;	/* of those, sent again after a timeout */
	size_t lost;		/* queries unanswered after every retry */
	size_t sweeps;		/* whole sweeps (more when the fabric changed) */
	unsigned window_max;	/* MADs in flight at most */
	unsigned window_min;	/* the lowest the window was cut to on loss */
	/* a node that timed out far more than any other, or 0 */
	uint64_t worst_guid;
	size_t worst_timeouts;
};

struct ibtopo_discover_opts {
	unsigned version;		/* IBTOPO_DISCOVER_OPTS_VERSION */
	const char *ca;			/* CA name, NULL = first */
	int port;			/* CA port, 0 = first active */
	unsigned timeout_ms;		/* per MAD, 0 = library default */
	unsigned flags;			/* enum ibtopo_discover_flags */
	/* optional progress callback (nodes seen so far); may be NULL */
	void (*progress)(void *arg, size_t nodes);
	void *progress_arg;
	/* version 2: */
	unsigned retries;		/* per query: sent again on timeout */
	/* optional: a sweep was incomplete and is tried again; may be NULL */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
	/* version 3: */
	/*
	 * optional, with IBTOPO_DISCOVER_ROUTES: the forwarding tables of
	 * the kept sweep were read, `switches` of them in `blocks`
	 * LinearForwardingTable Gets, taking `seconds`; may be NULL
	 */
	void (*routes_read)(void *arg, size_t switches, size_t blocks,
			    double seconds);
	void *routes_arg;
	/* also write the sweep kept as an `ibnetdiscover --cache`
	 * file here (libibnetdisc's ibnd_cache_fabric()), replaced whole
	 * only when discovery succeeds; NULL: none */
	const char *cache_path;
	/* version 4: where to put what the MADs cost; NULL: nowhere */
	struct ibtopo_mad_stats *stats;
	/*
	 * version 5: optional, with IBTOPO_DISCOVER_ROUTES: the multicast
	 * forwarding tables of `switches` switches were read in `blocks`
	 * MulticastForwardingTable Gets, the SA's groups in `sa_mads`
	 * MCMemberRecord GetTables (0: no SA answered), taking `seconds`
	 */
	void (*mcast_read)(void *arg, size_t switches, size_t blocks,
			   size_t sa_mads, double seconds);
	void *mcast_arg;
};
#define IBTOPO_DISCOVER_OPTS_VERSION 5
#define IBTOPO_DISCOVER_RETRIES 8	/* the default of `retries` */
#define IBTOPO_DISCOVER_OPTS_INIT \
	{ IBTOPO_DISCOVER_OPTS_VERSION, NULL, 0, 0, 0, NULL, NULL, \
	  IBTOPO_DISCOVER_RETRIES, NULL, NULL, NULL, NULL, NULL, NULL, \
	  NULL, NULL }

/**
 * Discover the fabric attached to a local CA port through libibnetdisc.
 * opts may be NULL (first CA, first active port, default timeout).
 * Returns IBTOPO_ENODEV when no device or port is there (or it cannot be
 * opened, or is an Ethernet port), IBTOPO_ERROR when libibnetdisc fails
 * (it logs on stderr itself), IBTOPO_EPARTIAL when discovery stopped
 * part-way and IBTOPO_DISCOVER_PARTIAL was not given (then *out is NULL).
 * With the flag, *out is marked partial instead. Part-way means: a port
 * that is LinkUp has no peer (the peer did not answer), a switch is
 * missing the PortInfo of one of its ports, a port its PortInfo, or a
 * node its NodeDescription, after each of those was asked for again (the
 * message names the first one and its directed route). Every query (SMP
 * or PMA) that times out is sent again on its own, up to `retries` times
 * (version 2; IBTOPO_DISCOVER_RETRIES before), each time with twice the
 * timeout (at most 4 times `timeout_ms`), and the MADs in flight (16)
 * are halved on loss and grow back one by one as answers come (AIMD).
 * The whole sweep is run again (at most twice) only when the fabric
 * changed under it and it is incomplete: a port that was LinkUp without
 * an answering peer is down when asked again.
 * With IBTOPO_DISCOVER_COUNTERS, a port whose PMA never answered
 * PortCounters after its retries gets counters with nothing valid (not
 * read: ibtopo_port_counters_unread(), ibtopo_fabric_counters_unread());
 * the fabric is not partial for it, and the counters that answered are
 * kept. A port without a LID, or whose PMA answers with an error, gets
 * none and only warns.
 * The fabric's source is
 * "discover:<ca>/<port>", host and taken_at are set, and it is sorted.
 * With IBTOPO_DISCOVER_ROUTES (version 3), every switch's SwitchInfo and
 * LinearForwardingTable blocks 0..LinearFDBTop/64 are read after the walk
 * with Gets through the same SMP window and attached (node->lft); a
 * switch whose SwitchInfo or a block of it does not answer, asked again,
 * gets no table and makes the discovery incomplete (by the rule above),
 * the message naming the switch.
 */
int ibtopo_fabric_discover(struct ibtopo_fabric **out,
			   const struct ibtopo_discover_opts *opts,
			   struct ibtopo_error *err);

/**
 * What a counters-only sweep (ibtopo_fabric_discover_counters()) saw that
 * says the topology may have changed since the fabric it read again was
 * walked. Each field counts ports, by the first sign each shows, in this
 * order; only ports whose counters were read in that fabric count.
 */
struct ibtopo_counters_signs {
	size_t signs;		/* ports with any of the signs below */
	size_t unanswered;	/* PMA answered before, not now (its retries spent) */
	size_t missing;		/* counters before, none now (no LID, an error status) */
	size_t link_downed;	/* LinkDownedCounter grew */
	size_t link_recovered;	/* LinkErrorRecoveryCounter grew */
	size_t went_back;	/* a counter below its value before: a reset, or
				 * its LID now answers for another port */
	/* the first sign, described ("port 1 of 'h00005' 0x...: its PMA
	 * did not answer"); "" when none */
	char first[256];
};

/**
 * A counters-only sweep: the PMA counters of every port of `kept` that a
 * discovery with IBTOPO_DISCOVER_COUNTERS reads (each linked port with a
 * LID), read again with PMA Gets (PortCounters, and PortCountersExtended
 * where ClassPortInfo, asked once per device model, says so), LID-routed
 * as in kept, through the local CA port kept was discovered through; no
 * SMP: the topology is not walked again. A switch whose model answers
 * AllPortSelect is asked for its PortCounters summed over its ports
 * first (the sums are kept on *out for the next call): when no error
 * counter or PortXmitWait sum moved since kept's (none at its largest),
 * its ports' PortCounters are kept's (they only grow) and only
 * PortCountersExtended is asked. *out is a copy of kept (nodes,
 * ports and their PortInfo values, links, cables, firmware, subnet
 * managers, PKeys, names, meta) with those fresh counters and taken_at
 * now; forwarding tables are not copied, and kept is not changed.
 * From opts (may be NULL) it takes timeout_ms, retries, warn and stats
 * (stats->sweeps is 0: no walk); ca, port and flags are ignored. With
 * `signs` (may be NULL), what the counters say of a change (see struct
 * ibtopo_counters_signs): the caller decides what a sign calls for (serve
 * walks the topology at once). Returns 0 with *out also when there are
 * signs; IBTOPO_EINVAL when kept does not say which local port it was
 * discovered through (it did not come from ibtopo_fabric_discover()),
 * IBTOPO_ENODEV when that port cannot be opened, IBTOPO_EIO when a MAD
 * cannot be sent or received, IBTOPO_ENOMEM.
 */
int ibtopo_fabric_discover_counters(struct ibtopo_fabric **out,
				    const struct ibtopo_fabric *kept,
				    const struct ibtopo_discover_opts *opts,
				    struct ibtopo_counters_signs *signs,
				    struct ibtopo_error *err);

/** A local CA port, as libibumad's sysfs view shows it (discover --all-ports). */
struct ibtopo_local_port {
	char ca[64];
	unsigned port;
	bool infiniband;	/* link layer InfiniBand, not Ethernet (RoCE) */
	bool active;		/* PortState Active */
	uint64_t port_guid;
	uint64_t subnet_prefix;	/* GID prefix; 0 = not known */
	uint16_t sm_lid;	/* master SM's LID; 0 = no SM */
	uint64_t sm_guid;	/* its port GUID (SMInfo Get); 0 = not known */
};

/**
 * Every port of every local CA, in CA name and port order, into *out
 * (free() it); the master SM's port GUID is asked for (SMInfo Get) on
 * the active InfiniBand ports that know an SM LID, waiting at most
 * `timeout_ms` (0: 500 ms). IBTOPO_ENODEV when libibumad finds no CA.
 */
int ibtopo_local_ports(struct ibtopo_local_port **out, size_t *out_count,
		       unsigned timeout_ms, struct ibtopo_error *err);

/**
 * discover --all-ports: the index of the next port of list[from..count)
 * to discover through, `count` for none. A port qualifies when it is an
 * active InfiniBand port whose master SM is not one of the `nseen` port
 * GUIDs in `seen_sm` (the subnets covered so far); a port whose SM is
 * not known always does (the caller then compares switch GUIDs).
 */
size_t ibtopo_local_ports_next(const struct ibtopo_local_port *list,
			       size_t count, size_t from,
			       const uint64_t *seen_sm, size_t nseen);
/**
 * discover --all-ports: port `p` reached `fabric`; its subnet's SM (the
 * master the sweep found, else the port's own MasterSMLID's) goes onto
 * seen_sm[*nseen] (room for it is the caller's), unless neither is
 * known.
 */
void ibtopo_local_ports_seen(uint64_t *seen_sm, size_t *nseen,
			     const struct ibtopo_local_port *p,
			     const struct ibtopo_fabric *fabric);

/**
 * Load an `ibnetdiscover --cache` file (its layout is checked before
 * libibnetdisc reads it). IBTOPO_EPARSE "'<path>': not an ibnetdiscover
 * cache file" or "'<path>': truncated or corrupt cache file";
 * IBTOPO_EIO/ENOTFOUND when unreadable. taken_at is the file's mtime;
 * host stays NULL; the fabric is marked partial by the rule of
 * ibtopo_fabric_discover() (a cache of an incomplete discovery).
 */
int ibtopo_fabric_load_cache(struct ibtopo_fabric **out, const char *path,
			     struct ibtopo_error *err);

/** True if the file starts like an ibnetdiscover cache file. */
bool ibtopo_file_is_cache(const char *path);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_DISCOVER_H */
