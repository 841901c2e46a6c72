/*
 * gets.c - a batch of Gets through a window of MADs in flight (AIMD,
 * struct ibtopo__window), for what a live sweep reads after its walk:
 * directed-route SMPs (sweep_pkey.c's PKeyTables, discover_mcast.c's
 * MulticastForwardingTable blocks) or SA GetTables (discover_mcast.c's
 * multicast members, port by port).
 *
 * Every MAD is a Get (or GetTable): nothing is written. One that times
 * out is sent again, queued last, up to `retries` times, each time with
 * twice the timeout, and halves the window; one that never answers is
 * lost (counted in the tally, and blamed on its node). Each Get ends in
 * one call of the caller's function: with the answer, or with NULL when
 * none came or it came with an error status.
 *
 * The kernel reports a send whose answer did not come in its timeout;
 * a transport that does not (umad2sim for an SA GetTable whose answer
 * OpenSM never completes) must not hang the sweep: a Get still on the
 * wire twice its timeout after it went out is taken as timed out.
 */
#include "discover/discover-int.h"

#include <infiniband/umad.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define GETS_TIMEOUT_MS 1000
#define GETS_WINDOW_MAX 64
#define SA_ANSWER_FIRST 4096 /* bytes: grows when an answer needs more */

/* One Get in the queue: which, and how it was last sent. */
struct req {
	size_t g;	   /* index into the caller's Gets */
	unsigned tries;	   /* sent again so far */
	uint32_t trid;	   /* its TID's low half (the kernel owns the rest) */
	unsigned long seq; /* its number in the window */
	double overdue;	   /* when it is taken as timed out (monotonic s) */
};

struct run {
	const struct ibtopo__gets *how;
	const struct ibtopo__get *gets;
	int fd, agent;
	struct req *reqs; /* reqs[next..nreqs) wait to be sent */
	size_t nreqs, areqs, next;
	size_t wire[GETS_WINDOW_MAX]; /* index into reqs, or SIZE_MAX */
	unsigned on_wire, window;
	struct ibtopo__window win;
	uint8_t *buf; /* an answer: umad header and MAD(s) */
	int buf_len;  /* its MAD bytes room */
	int failed;   /* errno of a send or receive */
	int stopped;  /* the caller's error, from how->got */
};

static int queue(struct run *r, size_t g, unsigned tries)
{
	if (ibtopo__grow(&r->reqs, &r->areqs, r->nreqs + 1, sizeof(*r->reqs)))
		return IBTOPO_ENOMEM;
	r->reqs[r->nreqs++] = (struct req){ g, tries, 0, 0, 0 };
	return 0;
}

static int send_req(struct run *r, struct req *q)
{
	const struct ibtopo__get *g = &r->gets[q->g];
	uint8_t umad[sizeof(struct ib_user_mad) + IB_MAD_SIZE];
	ib_portid_t to = g->to;
	bool sa = r->how->sa;
	ib_rpc_t rpc;
	int rc;

	memset(umad, 0, sizeof(umad));
	memset(&rpc, 0, sizeof(rpc));
	rpc.mgtclass = sa ? IB_SA_CLASS : IB_SMI_DIRECT_CLASS;
	rpc.method = sa ? IB_MAD_METHOD_GET_TABLE : IB_MAD_METHOD_GET;
	rpc.attr.id = g->attr;
	rpc.attr.mod = g->mod;
	rpc.mask = g->comp;
	rpc.timeout = (int)ibtopo__retry_timeout(
		r->how->timeout_ms ? r->how->timeout_ms : GETS_TIMEOUT_MS,
		q->tries);
	rpc.datasz = sa ? IB_SA_DATA_SIZE : IB_SMP_DATA_SIZE;
	rpc.dataoffs = sa ? IB_SA_DATA_OFFS : IB_SMP_DATA_OFFS;
	rpc.trid = mad_trid();
	q->trid = (uint32_t)rpc.trid;
	rc = mad_build_pkt(umad, &rpc, &to, NULL, (void *)g->rec);
	if (rc < 0)
		return rc;
	if (sa)
		mad_set_field64(umad_get_mad(umad), 0, IB_SA_MKEY_F,
				r->how->sm_key);
	/* we retry ourselves, one query at a time: the kernel must not */
	rc = umad_send(r->fd, r->agent, umad, IB_MAD_SIZE, rpc.timeout, 0);
	if (rc < 0)
		return rc;
	r->how->tally->st.sent++;
	q->seq = ibtopo__window_sent(&r->win);
	q->overdue = ibtopo__mono_now() + 2 * rpc.timeout / 1e3;
	return 0;
}

/* Send what waits while the window has room. */
static int pump(struct run *r)
{
	while (r->next < r->nreqs && r->on_wire < r->win.cur) {
		unsigned slot = 0;
		int rc = send_req(r, &r->reqs[r->next]);

		if (rc < 0) {
			r->failed = -rc;
			return IBTOPO_EIO;
		}
		while (r->wire[slot] != SIZE_MAX)
			slot++;
		r->wire[slot] = r->next++;
		r->on_wire++;
	}
	return 0;
}

/* Milliseconds until the first Get on the wire is overdue (at least 1). */
static int wait_ms(const struct run *r)
{
	double first = 0, now = ibtopo__mono_now();

	for (unsigned i = 0; i < r->window; i++) {
		const struct req *q =
			r->wire[i] != SIZE_MAX ? &r->reqs[r->wire[i]] : NULL;

		if (q && (!first || q->overdue < first))
			first = q->overdue;
	}
	return first > now ? (int)((first - now) * 1e3) + 1 : 1;
}

/*
 * The next answer into r->buf (grown as it needs): its MAD bytes; or
 * -ETIMEDOUT when a Get on the wire became overdue first.
 */
static int receive_one(struct run *r, int *len)
{
	for (;;) {
		uint8_t *b;
		int rc;

		*len = r->buf_len;
		rc = umad_recv(r->fd, r->buf, len, wait_ms(r));
		if (rc != -ENOSPC)
			return rc;
		/* too big for the room: it waits, *len is what it needs */
		if (*len <= r->buf_len) {
			r->failed = ENOSPC;
			return -ENOSPC;
		}
		b = realloc(r->buf, umad_size() + (size_t)*len);
		if (!b)
			return -ENOMEM;
		r->buf = b;
		r->buf_len = *len;
	}
}

/* The request an answer's TID belongs to, off the wire; SIZE_MAX none. */
static size_t take(struct run *r, uint32_t trid)
{
	for (unsigned i = 0; i < r->window; i++) {
		size_t qi = r->wire[i];

		if (qi != SIZE_MAX && r->reqs[qi].trid == trid) {
			r->wire[i] = SIZE_MAX;
			r->on_wire--;
			return qi;
		}
	}
	return SIZE_MAX;
}

/* Request qi (off the wire) timed out: ask again, or it is lost. */
static int timed_out(struct run *r, size_t qi)
{
	const struct ibtopo__gets *how = r->how;
	struct req q = r->reqs[qi]; /* queue() may move the array */

	ibtopo__window_loss(&r->win, q.seq);
	ibtopo__tally_timeout(how->tally, r->gets[q.g].guid);
	if (q.tries < how->retries) {
		how->tally->st.asked_again++;
		return queue(r, q.g, q.tries + 1) ? IBTOPO_ENOMEM : 0;
	}
	how->tally->st.lost++;
	r->stopped = how->got(how->arg, &r->gets[q.g], NULL, 0);
	return r->stopped;
}

/* Every Get on the wire past its time, as timed out. */
static int expire(struct run *r)
{
	double now = ibtopo__mono_now();
	int rc = 0;

	for (unsigned i = 0; i < r->window && !rc; i++) {
		size_t qi = r->wire[i];

		if (qi == SIZE_MAX || r->reqs[qi].overdue > now)
			continue;
		r->wire[i] = SIZE_MAX;
		r->on_wire--;
		rc = timed_out(r, qi);
	}
	return rc ? rc : pump(r);
}

static int receive(struct run *r)
{
	const struct ibtopo__gets *how = r->how;
	int len, rc = receive_one(r, &len);
	uint8_t *mad;
	size_t qi;
	unsigned status;

	if (rc == -ETIMEDOUT)
		return expire(r);
	if (rc == -ENOMEM)
		return IBTOPO_ENOMEM;
	if (rc < 0) {
		r->failed = -rc;
		return IBTOPO_EIO;
	}
	mad = umad_get_mad(r->buf);
	qi = take(r, (uint32_t)mad_get_field64(mad, 0, IB_MAD_TRID_F));
	if (qi == SIZE_MAX)
		return 0; /* a late answer to nothing we wait for */
	if (umad_status(r->buf)) {
		rc = timed_out(r, qi);
		return rc ? rc : pump(r);
	}
	ibtopo__window_answer(&r->win);
	status = mad_get_field(mad, 0,
			       how->sa ? IB_MAD_STATUS_F : IB_DRSMP_STATUS_F);
	r->stopped = how->got(how->arg, &r->gets[r->reqs[qi].g],
			      status ? NULL : mad, status ? 0 : (size_t)len);
	return r->stopped ? r->stopped : pump(r);
}

static int open_agent(struct run *r, struct ibtopo_error *err)
{
	const struct ibtopo__gets *how = r->how;

	r->fd = umad_open_port(how->ca, how->portnum);
	if (r->fd < 0)
		return ibtopo__error_set(err, IBTOPO_ENODEV,
					 "cannot open the MAD port: %s",
					 strerror(-r->fd));
	/* SA: RMPP version 1, so the kernel reassembles a long table */
	r->agent =
		how->sa ? umad_register(r->fd, IB_SA_CLASS, 2, 1, NULL) :
			  umad_register(r->fd, IB_SMI_DIRECT_CLASS, 1, 0, NULL);
	if (r->agent < 0) {
		umad_close_port(r->fd);
		return ibtopo__error_set(err, IBTOPO_ENODEV,
					 "cannot register a %s agent: %s",
					 how->sa ? "subnet administration" :
						   "directed-route SMP",
					 strerror(-r->agent));
	}
	return 0;
}

void ibtopo__gets_init(struct ibtopo__gets *how, const char *ca, int portnum,
		       unsigned window, struct ibtopo__mad_tally *tally)
{
	memset(how, 0, sizeof(*how));
	how->ca = ca;
	how->portnum = portnum;
	how->window = window;
	how->tally = tally;
}

int ibtopo__gets_run(const struct ibtopo__gets *how,
		     const struct ibtopo__get *gets, size_t n,
		     struct ibtopo_error *err)
{
	struct run r = { 0 };
	int rc = 0;

	if (!n)
		return 0;
	r.how = how;
	r.gets = gets;
	r.window = how->window && how->window < GETS_WINDOW_MAX ?
			   how->window :
			   GETS_WINDOW_MAX;
	ibtopo__window_init(&r.win, r.window);
	for (unsigned i = 0; i < GETS_WINDOW_MAX; i++)
		r.wire[i] = SIZE_MAX;
	r.buf_len = how->sa ? SA_ANSWER_FIRST : IB_MAD_SIZE;
	r.buf = malloc(umad_size() + (size_t)r.buf_len);
	for (size_t i = 0; r.buf && i < n && !rc; i++)
		rc = queue(&r, i, 0);
	if (!r.buf || rc) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	rc = open_agent(&r, err);
	if (rc)
		goto out_free;
	rc = pump(&r);
	while (!rc && r.on_wire)
		rc = receive(&r);
	if (r.stopped)
		rc = r.stopped; /* the caller's, described by the caller */
	else if (rc == IBTOPO_ENOMEM)
		rc = ibtopo__error_set(err, rc, "out of memory");
	else if (rc == IBTOPO_EIO)
		rc = ibtopo__error_set(err, rc, "%s MAD failed: %s",
				       how->what ? how->what : "a",
				       strerror(r.failed));
	ibtopo__tally_window(how->tally, &r.win);
	umad_unregister(r.fd, r.agent);
	umad_close_port(r.fd);
out_free:
	free(r.buf);
	free(r.reqs);
	return rc;
}
