/*
 * ibtopo/counters.h - port counters (PerfMgt PortCounters / PortCountersExtended). Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_COUNTERS_H
#define IBTOPO_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The counters a port's PMA keeps, in PortCounters order. */
enum ibtopo_counter {
	IBTOPO_CTR_SYMBOL_ERRORS = 0,		/* 16 bits */
	IBTOPO_CTR_LINK_ERROR_RECOVERY,		/* 8 */
	IBTOPO_CTR_LINK_DOWNED,			/* 8 */
	IBTOPO_CTR_RCV_ERRORS,			/* 16 */
	IBTOPO_CTR_RCV_REMOTE_PHYS_ERRORS,	/* 16 */
	IBTOPO_CTR_RCV_SWITCH_RELAY_ERRORS,	/* 16 */
	IBTOPO_CTR_XMIT_DISCARDS,		/* 16 */
	IBTOPO_CTR_XMIT_CONSTRAINT_ERRORS,	/* 8 */
	IBTOPO_CTR_RCV_CONSTRAINT_ERRORS,	/* 8 */
	IBTOPO_CTR_LOCAL_LINK_INTEGRITY_ERRORS,	/* 4 */
	IBTOPO_CTR_EXCESSIVE_BUFFER_OVERRUN_ERRORS, /* 4 */
	IBTOPO_CTR_VL15_DROPPED,		/* 16 */
	IBTOPO_CTR_XMIT_WAIT,			/* 32 */
	IBTOPO_CTR_XMIT_DATA,			/* 32, or 64 extended; 4-byte words */
	IBTOPO_CTR_RCV_DATA,
	IBTOPO_CTR_XMIT_PKTS,
	IBTOPO_CTR_RCV_PKTS,
	IBTOPO_CTR_COUNT_
};

/** One port's counters as read at one moment. */
struct ibtopo_counters {
	uint64_t value[IBTOPO_CTR_COUNT_];
	uint32_t valid;		/* 1u << counter: the value was read; 0: the
			 * port was asked and did not answer (not read) */
	uint32_t extended;	/* 1u << counter: 64 bits (PortCountersExtended) */
	int64_t read_at_ms;	/* UTC milliseconds since the epoch; 0 = unknown */
};

/**
 * The IBA name of a counter as perfquery prints it ("SymbolErrorCounter",
 * "PortXmitData"); NULL when out of range.
 */
const char *ibtopo_counter_name(enum ibtopo_counter counter);
/** Inverse of ibtopo_counter_name() (case-insensitive); -1 if unknown. */
int ibtopo_counter_parse(const char *name);
/** Width in bits of a counter (64 for an extended one). */
unsigned ibtopo_counter_bits(enum ibtopo_counter counter, bool extended);
/** True for the error counters (SymbolErrorCounter .. VL15Dropped). */
bool ibtopo_counter_is_error(enum ibtopo_counter counter);
/** True when `value` is the counter's largest (it stopped counting). */
bool ibtopo_counter_is_saturated(enum ibtopo_counter counter, bool extended,
				 uint64_t value);

/**
 * Attach counters to a port (copied into fabric-owned memory; replaces
 * earlier ones; NULL removes them). IBTOPO_EINVAL without a port,
 * IBTOPO_ENOMEM.
 */
int ibtopo_port_set_counters(struct ibtopo_port *port,
			     const struct ibtopo_counters *counters,
			     struct ibtopo_error *err);

/**
 * True when the port's counters were asked for and not read (its PMA did
 * not answer, discover --counters): it carries counters with no value
 * valid. Such a port is "not read", never a port of zeros.
 */
bool ibtopo_port_counters_unread(const struct ibtopo_port *port);
/**
 * How many ports of `fabric` have counters not read (as
 * ibtopo_port_counters_unread()); with `buf` (len bytes), which they are,
 * in node order: "'spine02' port 1 2 3, 'leaf01' port 4", cut at a whole
 * port with " and N more". Returns the count (0: every port asked was
 * read, or none was asked).
 */
size_t ibtopo_fabric_counters_unread(const struct ibtopo_fabric *fabric,
				     char *buf, size_t len);

/** How ibtopo_counters_load() reads counters from a file. */
struct ibtopo_counters_load_opts {
	unsigned version;	/* IBTOPO_COUNTERS_LOAD_OPTS_VERSION */
	/* optional: warnings ("<path>:<line>: ..."); may be NULL */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
	/* when the counters were read (UTC ms); 0: the file's mtime, or now
	 * for a buffer */
	int64_t read_at_ms;
	/* version 2: an ibdiagnet2.db_csv's PM_DELTA section (the growth
	 * over ibdiagnet's --pm_pause_time) gives the earlier reading,
	 * PM_INFO less PM_DELTA, pm_pause_ms (0: 1000, ibdiagnet's default)
	 * before PM_INFO's; it goes to the same ports (by node GUID and
	 * port number) of `before`, another copy of the fabric, when given:
	 * ibtopo_health_analyze(fabric, before) then has the growth */
	struct ibtopo_fabric *before;
	int64_t pm_pause_ms;
};
#define IBTOPO_COUNTERS_LOAD_OPTS_VERSION 2
#define IBTOPO_COUNTERS_LOAD_OPTS_INIT \
	{ IBTOPO_COUNTERS_LOAD_OPTS_VERSION, NULL, NULL, 0, NULL, 0 }

/**
 * Read port counters from a file and attach them to the fabric's ports,
 * as discover --counters does. The format is detected from the content:
 * - perfquery output (also -x): blocks "# Port counters: Lid N port P"
 *   or "# Port extended counters: ...", then "Field:....value" lines;
 *   the port is the fabric's port P of the node that has LID N;
 * - ibqueryerrors output: "GUID 0x... port N: [Counter == value] ..."
 *   lines; the GUID is a node's (a switch) or a port's (a CA port);
 * - ibdiagnet2.pm: blocks "Port=N Lid=0x... GUID=0x... ...", then
 *   "counter_name=0x..." lines (NA: not read);
 * - ibdiagnet2.db_csv: its PM_INFO section (NodeGUID, PortGUID,
 *   PortNumber, then the IBA names; "...Ext"/"...Extended" the 64-bit
 *   counters), and PM_DELTA (see opts->before).
 * Ports the fabric does not have are counted in *out_unknown (may be
 * NULL), not an error. The file is read whole before any port changes.
 * IBTOPO_EPARSE "<path>:<line>: <what was expected>", IBTOPO_EIO,
 * IBTOPO_ENOMEM, IBTOPO_EINVAL.
 */
int ibtopo_counters_load(struct ibtopo_fabric *fabric, const char *path,
			 const struct ibtopo_counters_load_opts *opts,
			 size_t *out_unknown, struct ibtopo_error *err);

/**
 * ibtopo_counters_load() on `len` bytes in memory; `name` stands for the
 * path in messages. Text with a NUL byte is refused (IBTOPO_EPARSE).
 */
int ibtopo_counters_load_buffer(struct ibtopo_fabric *fabric, const char *data,
				size_t len, const char *name,
				const struct ibtopo_counters_load_opts *opts,
				size_t *out_unknown, struct ibtopo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_COUNTERS_H */
