/* test_diff.c - snapshot diff: what changed between two fabrics */
#include "ibtopo-int.h"
#include "findings/findings-int.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "helpers.h"
#include <stdlib.h>
#include <string.h>

/* A struct test_cable: "node" port - "node" port, at a speed and width
 * (0 = HDR 4x). */
#define C(x, px, y, py) { x, px, y, py, 0, 0 }
#define L(x, px, y, py, s, w) { x, px, y, py, s, w }
#define END { NULL, 0, NULL, 0, 0, 0 }
#define HDR IBTOPO_SPEED_HDR
#define EDR IBTOPO_SPEED_EDR

/* hostNNN -> CA 0x1000+N, leafNN -> switch 0x2000+N, spineNN -> 0x3000+N */
static uint64_t guid_of(const char *name)
{
	return test_guid_of(name, 0);
}

static struct ibtopo_node *node_of(struct ibtopo_fabric *f, const char *name)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node(f, guid_of(name));
	bool host = test_is_host(name);

	if (!n)
		assert_int_equal(ibtopo_fabric_add_node(&n, f,
			host ? IBTOPO_NODE_CA : IBTOPO_NODE_SWITCH, guid_of(name),
			host ? 2 : 36, name, NULL), 0);
	return n;
}

static struct ibtopo_port *port_of(struct ibtopo_fabric *f, const char *name,
				   unsigned num)
{
	struct ibtopo_port *p = NULL;

	assert_int_equal(ibtopo_node_add_port(&p, f, node_of(f, name), num, NULL), 0);
	return p;
}

/* Build a fabric from cables (terminated by x == NULL) and lone nodes. */
static struct ibtopo_fabric *mk(const struct test_cable *l, const char *const *lone)
{
	struct ibtopo_fabric *f = NULL;

	assert_int_equal(ibtopo_fabric_new(&f, NULL), 0);
	for (; l && l->x; l++) {
		struct ibtopo_port *a = port_of(f, l->x, l->px);
		struct ibtopo_port *b = port_of(f, l->y, l->py);

		a->speed_active = b->speed_active = (uint16_t)(l->speed ? l->speed : HDR);
		a->width_active = b->width_active =
			(uint8_t)(l->width ? l->width : IBTOPO_WIDTH_4X);
		a->state = b->state = IBTOPO_PORT_STATE_ACTIVE;
		assert_int_equal(ibtopo_fabric_connect(NULL, f, a, b, NULL), 0);
	}
	for (; lone && *lone; lone++)
		node_of(f, *lone);
	return f;
}

/* The base fabric: two leaves, one spine, four hosts. */
static const struct test_cable base[] = {
	C("leaf01", 1, "host001", 1),
	C("leaf01", 2, "host002", 1),
	C("leaf02", 1, "host003", 1),
	C("leaf02", 2, "host004", 1),
	C("leaf01", 9, "spine01", 1),
	C("leaf02", 9, "spine01", 2),
	END,
};

struct run {
	struct ibtopo_fabric *old, *new_;
	struct ibtopo_findings list;
};

static void run_diff(struct run *r, const struct test_cable *old, const struct test_cable *new_,
		     unsigned flags)
{
	struct ibtopo_diff_opts opts = IBTOPO_DIFF_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	r->old = mk(old, NULL);
	r->new_ = mk(new_, NULL);
	memset(&r->list, 0, sizeof(r->list));
	opts.flags = flags;
	assert_int_equal(test_diff(&r->list, r->old, r->new_, &opts, &err), 0);
}

static void run_free(struct run *r)
{
	ibtopo_findings_release(&r->list);
	ibtopo_fabric_free(r->old);
	ibtopo_fabric_free(r->new_);
}

static void assert_end(const struct ibtopo_end *e, const char *node, int port)
{
	assert_non_null(e->node);
	assert_string_equal(e->node, node);
	assert_int_equal(e->port, port);
}

static void identical_fabrics_have_no_changes(void **state)
{
	struct run r;

	run_diff(&r, base, base, IBTOPO_DIFF_LIDS);
	assert_int_equal(r.list.count, 0);
	run_free(&r);
}

static void added_host_is_one_node_added(void **state)
{
	static const struct test_cable more[] = {
		C("leaf01", 1, "host001", 1), C("leaf01", 2, "host002", 1),
		C("leaf02", 1, "host003", 1), C("leaf02", 2, "host004", 1),
		C("leaf01", 9, "spine01", 1), C("leaf02", 9, "spine01", 2),
		C("leaf02", 3, "host005", 1), END,
	};
	struct run r;

	run_diff(&r, base, more, 0);
	assert_int_equal(r.list.count, 1);
	assert_int_equal(r.list.items[0].kind, IBTOPO_FIND_NODE_ADDED);
	assert_int_equal(r.list.items[0].severity, IBTOPO_SEV_INFO);
	assert_end(&r.list.items[0].a, "host005", -1);
	assert_int_equal(r.list.items[0].a.guid, 0x1005);
	assert_int_equal(r.list.items[0].num.links.links, 1);
	run_free(&r);

	/* and the other way round, a removal */
	run_diff(&r, more, base, 0);
	assert_int_equal(r.list.count, 1);
	assert_int_equal(r.list.items[0].kind, IBTOPO_FIND_NODE_REMOVED);
	assert_int_equal(r.list.items[0].severity, IBTOPO_SEV_WARNING);
	assert_end(&r.list.items[0].a, "host005", -1);
	assert_int_equal(r.list.items[0].num.links.links, 1);
	run_free(&r);
}

static void new_description_is_a_rename(void **state)
{
	struct run r;

	run_diff(&r, base, base, 0);
	ibtopo_findings_release(&r.list);
	assert_int_equal(ibtopo_node_set_desc(ibtopo_fabric_find_node(r.new_, 0x1002),
					      "host002 mlx5_0", NULL), 0);
	assert_int_equal(test_diff(&r.list, r.old, r.new_, NULL, NULL), 0);
	assert_int_equal(r.list.count, 1);
	assert_int_equal(r.list.items[0].kind, IBTOPO_FIND_NODE_RENAMED);
	assert_end(&r.list.items[0].a, "host002", -1);
	assert_end(&r.list.items[0].c, "host002 mlx5_0", -1);
	assert_int_equal(r.list.items[0].c.guid, 0x1002);
	run_free(&r);
}

static void unplugged_cable_is_link_removed(void **state)
{
	static const struct test_cable fewer[] = {
		C("leaf01", 1, "host001", 1), C("leaf01", 2, "host002", 1),
		C("leaf02", 1, "host003", 1), C("leaf02", 2, "host004", 1),
		C("leaf01", 9, "spine01", 1), END,
	};
	struct run r;

	run_diff(&r, base, fewer, 0);
	assert_int_equal(r.list.count, 1);
	assert_int_equal(r.list.items[0].kind, IBTOPO_FIND_LINK_REMOVED);
	assert_end(&r.list.items[0].a, "leaf02", 9);
	assert_end(&r.list.items[0].b, "spine01", 2);
	run_free(&r);

	run_diff(&r, fewer, base, 0);
	assert_int_equal(r.list.count, 1);
	assert_int_equal(r.list.items[0].kind, IBTOPO_FIND_LINK_ADDED);
	assert_end(&r.list.items[0].a, "leaf02", 9);
	assert_end(&r.list.items[0].b, "spine01", 2);
	run_free(&r);
}

/* The diff from base to `to` is one link-moved finding of `subkind`. */
static const struct ibtopo_finding *one_move(struct run *r,
					     const struct test_cable *to,
					     int subkind)
{
	run_diff(r, base, to, 0);
	assert_int_equal(r->list.count, 1);
	assert_int_equal(r->list.items[0].kind, IBTOPO_FIND_LINK_MOVED);
	assert_int_equal(r->list.items[0].subkind, subkind);
	return &r->list.items[0];
}

/*
 * A table-driven case: the diff from base to the row's cables is one
 * link-moved finding of the row's kind whose ends a, b, c, d are the
 * row's (a NULL node: that end not checked). The row's name is the
 * test's.
 */
struct move_case {
	const struct test_cable *to;
	int subkind;
	struct {
		const char *node;
		int port;
	} end[4];
};

static void one_move_case(void **state)
{
	const struct move_case *m = *state;
	struct run r;
	const struct ibtopo_finding *f = one_move(&r, m->to, m->subkind);
	const struct ibtopo_end *ends[4] = { &f->a, &f->b, &f->c, &f->d };

	for (int i = 0; i < 4; i++)
		if (m->end[i].node)
			assert_end(ends[i], m->end[i].node, m->end[i].port);
	run_free(&r);
}

#define MOVE_TEST(row) { #row, one_move_case, NULL, NULL, &row }

/* a: the end that stayed; b: where it was; d: where it is */
static struct move_case host_cable_in_another_leaf_port_is_one_move = {
	(const struct test_cable[]){
		C("leaf01", 5, "host001", 1), C("leaf01", 2, "host002", 1),
		C("leaf02", 1, "host003", 1), C("leaf02", 2, "host004", 1),
		C("leaf01", 9, "spine01", 1), C("leaf02", 9, "spine01", 2),
		END,
	},
	IBTOPO_MOVE_ONE_END,
	{ { "host001", 1 }, { "leaf01", 1 }, { "host001", 1 }, { "leaf01", 5 } },
};

/*
 * The text shows the moved cable's old ends as END A and END B: its
 * message names the old and the new ends. And diff's WHAT TO DO column
 * holds what to do: every diff kind's sentence ends with an action.
 */
static void moved_cable_message_names_old_and_new(void **state)
{
	static const struct test_cable moved[] = {
		C("leaf01", 5, "host001", 1), C("leaf01", 2, "host002", 1),
		C("leaf02", 1, "host003", 1), C("leaf02", 2, "host004", 1),
		C("leaf01", 9, "spine01", 1), C("leaf02", 9, "spine01", 2),
		END,
	};
	static const enum ibtopo_finding_kind kinds[] = {
		IBTOPO_FIND_NODE_ADDED, IBTOPO_FIND_NODE_REMOVED,
		IBTOPO_FIND_NODE_RENAMED, IBTOPO_FIND_LINK_ADDED,
		IBTOPO_FIND_LINK_REMOVED, IBTOPO_FIND_LINK_MOVED,
		IBTOPO_FIND_LINK_SPEED_CHANGED, IBTOPO_FIND_LINK_WIDTH_CHANGED,
		IBTOPO_FIND_PORT_STATE_CHANGED, IBTOPO_FIND_LID_CHANGED,
	};
	struct run r;
	char buf[512];

	run_diff(&r, base, moved, 0);
	assert_int_equal(r.list.count, 1);
	ibtopo_finding_message(buf, sizeof(buf), &r.list.items[0]);
	assert_non_null(strstr(buf, "from port 1 of 'host001' and port 1 of 'leaf01'"));
	assert_non_null(strstr(buf, "to port 1 of 'host001' and port 5 of 'leaf01'"));
	run_free(&r);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct ibtopo_finding f;

		ibtopo__finding_init(&f, kinds[i]);
		f.num.change.before = 2;
		f.num.change.after = 1;
		ibtopo_finding_message(buf, sizeof(buf), &f);
		/* a description, then ': ' and what to do */
		if (!strstr(buf, ": "))
			fail_msg("%s: no action in '%s'",
				 ibtopo_finding_kind_name(kinds[i]), buf);
	}
}

static struct move_case host_cable_on_another_leaf_is_one_move = {
	(const struct test_cable[]){
		C("leaf02", 3, "host001", 1), C("leaf01", 2, "host002", 1),
		C("leaf02", 1, "host003", 1), C("leaf02", 2, "host004", 1),
		C("leaf01", 9, "spine01", 1), C("leaf02", 9, "spine01", 2),
		END,
	},
	IBTOPO_MOVE_ONE_END,
	{ { "host001", 1 }, { "leaf01", 1 }, { NULL, 0 }, { "leaf02", 3 } },
};

static struct move_case uplink_moved_at_both_ends_is_one_move = {
	(const struct test_cable[]){
		C("leaf01", 1, "host001", 1), C("leaf01", 2, "host002", 1),
		C("leaf02", 1, "host003", 1), C("leaf02", 2, "host004", 1),
		C("leaf01", 10, "spine01", 5), C("leaf02", 9, "spine01", 2),
		END,
	},
	IBTOPO_MOVE_BOTH_PORTS,
	{ { "leaf01", 9 }, { "spine01", 1 }, { "leaf01", 10 }, { "spine01", 5 } },
};

/* the two switch ports, lower first; the old peers; new is a-d, c-b */
static struct move_case two_swapped_cables_are_one_swap = {
	(const struct test_cable[]){
		C("leaf01", 1, "host002", 1), C("leaf01", 2, "host001", 1),
		C("leaf02", 1, "host003", 1), C("leaf02", 2, "host004", 1),
		C("leaf01", 9, "spine01", 1), C("leaf02", 9, "spine01", 2),
		END,
	},
	IBTOPO_MOVE_SWAPPED,
	{ { "leaf01", 1 }, { "host001", 1 }, { "leaf01", 2 }, { "host002", 1 } },
};

/* leaf ends differ and host ends differ: the switch ends lead */
static struct move_case hosts_swapped_between_leaves_are_one_swap = {
	(const struct test_cable[]){
		C("leaf01", 1, "host003", 1), C("leaf01", 2, "host002", 1),
		C("leaf02", 1, "host001", 1), C("leaf02", 2, "host004", 1),
		C("leaf01", 9, "spine01", 1), C("leaf02", 9, "spine01", 2),
		END,
	},
	IBTOPO_MOVE_SWAPPED,
	{ { "leaf01", 1 }, { "host001", 1 }, { "leaf02", 1 }, { "host003", 1 } },
};

static void slower_link_is_speed_change(void **state)
{
	static const struct test_cable slow[] = {
		C("leaf01", 1, "host001", 1), L("leaf01", 2, "host002", 1, EDR, 0),
		C("leaf02", 1, "host003", 1), C("leaf02", 2, "host004", 1),
		L("leaf01", 9, "spine01", 1, 0, IBTOPO_WIDTH_1X),
		C("leaf02", 9, "spine01", 2), END,
	};
	struct run r;

	run_diff(&r, base, slow, 0);
	assert_int_equal(r.list.count, 2);
	assert_int_equal(r.list.items[0].kind, IBTOPO_FIND_LINK_SPEED_CHANGED);
	assert_int_equal(r.list.items[0].severity, IBTOPO_SEV_WARNING);
	assert_int_equal(r.list.items[0].num.change.before, HDR);
	assert_int_equal(r.list.items[0].num.change.after, EDR);
	assert_end(&r.list.items[0].a, "host002", 1);
	assert_end(&r.list.items[0].b, "leaf01", 2);
	assert_int_equal(r.list.items[1].kind, IBTOPO_FIND_LINK_WIDTH_CHANGED);
	assert_int_equal(r.list.items[1].num.change.before, IBTOPO_WIDTH_4X);
	assert_int_equal(r.list.items[1].num.change.after, IBTOPO_WIDTH_1X);
	run_free(&r);

	/* back up again: informational */
	run_diff(&r, slow, base, 0);
	assert_int_equal(r.list.count, 2);
	assert_int_equal(r.list.items[0].severity, IBTOPO_SEV_INFO);
	assert_int_equal(r.list.items[1].severity, IBTOPO_SEV_INFO);
	run_free(&r);
}

static void port_leaving_active_is_state_change(void **state)
{
	struct ibtopo_port *p;
	struct run r;

	run_diff(&r, base, base, 0);
	ibtopo_findings_release(&r.list);
	p = ibtopo_node_port(ibtopo_fabric_find_node(r.new_, 0x2001), 2);
	p->state = IBTOPO_PORT_STATE_INIT;
	/* an unconnected port disabled: physical state only */
	port_of(r.old, "leaf02", 20)->phys_state = 2;	/* polling */
	port_of(r.new_, "leaf02", 20)->phys_state = 3;	/* disabled */
	assert_int_equal(test_diff(&r.list, r.old, r.new_, NULL, NULL), 0);
	assert_int_equal(r.list.count, 2);
	assert_int_equal(r.list.items[0].kind, IBTOPO_FIND_PORT_STATE_CHANGED);
	assert_int_equal(r.list.items[0].subkind, IBTOPO_STATE_LOGICAL);
	assert_int_equal(r.list.items[0].severity, IBTOPO_SEV_WARNING);
	assert_end(&r.list.items[0].a, "leaf01", 2);
	assert_end(&r.list.items[0].b, "host002", 1);
	assert_int_equal(r.list.items[0].num.change.before, IBTOPO_PORT_STATE_ACTIVE);
	assert_int_equal(r.list.items[0].num.change.after, IBTOPO_PORT_STATE_INIT);
	assert_int_equal(r.list.items[1].subkind, IBTOPO_STATE_PHYSICAL);
	assert_int_equal(r.list.items[1].severity, IBTOPO_SEV_INFO);
	assert_end(&r.list.items[1].a, "leaf02", 20);
	assert_int_equal(r.list.items[1].b.port, -1);
	assert_int_equal(r.list.items[1].num.change.before, 2);
	assert_int_equal(r.list.items[1].num.change.after, 3);
	run_free(&r);
}

static void lid_changes_only_when_asked(void **state)
{
	struct run r;

	run_diff(&r, base, base, 0);
	ibtopo_findings_release(&r.list);
	port_of(r.old, "leaf01", 0)->lid = 1;
	port_of(r.new_, "leaf01", 0)->lid = 7;
	/* switch ports echo the switch LID: still one change */
	port_of(r.old, "leaf01", 1)->lid = 1;
	port_of(r.new_, "leaf01", 1)->lid = 7;
	port_of(r.old, "host001", 1)->lid = 3;
	port_of(r.new_, "host001", 1)->lid = 4;
	/* unknown on one side: not a change */
	port_of(r.new_, "host002", 1)->lid = 9;
	assert_int_equal(test_diff(&r.list, r.old, r.new_, NULL, NULL), 0);
	assert_int_equal(r.list.count, 0);
	{
		struct ibtopo_diff_opts o = IBTOPO_DIFF_OPTS_INIT;

		o.flags = IBTOPO_DIFF_LIDS;
		assert_int_equal(test_diff(&r.list, r.old, r.new_, &o, NULL), 0);
	}
	assert_int_equal(r.list.count, 2);
	for (size_t i = 0; i < 2; i++)
		assert_int_equal(r.list.items[i].kind, IBTOPO_FIND_LID_CHANGED);
	assert_end(&r.list.items[0].a, "leaf01", 0);
	assert_int_equal(r.list.items[0].num.change.before, 1);
	assert_int_equal(r.list.items[0].num.change.after, 7);
	assert_end(&r.list.items[1].a, "host001", 1);
	run_free(&r);
}

static void removed_switch_hides_its_links(void **state)
{
	static const struct test_cable nospine[] = {
		C("leaf01", 1, "host001", 1), C("leaf01", 2, "host002", 1),
		C("leaf02", 1, "host003", 1), C("leaf02", 2, "host004", 1),
		END,
	};
	struct run r;

	run_diff(&r, base, nospine, 0);
	assert_int_equal(r.list.count, 1);
	assert_int_equal(r.list.items[0].kind, IBTOPO_FIND_NODE_REMOVED);
	assert_end(&r.list.items[0].a, "spine01", -1);
	assert_int_equal(r.list.items[0].num.links.links, 2);
	run_free(&r);
}

static void hosts_behind_a_removed_leaf_say_so(void **state)
{
	static const struct test_cable noleaf[] = {
		C("leaf01", 1, "host001", 1), C("leaf01", 2, "host002", 1),
		C("leaf01", 9, "spine01", 1), END,
	};
	struct run r;

	run_diff(&r, base, noleaf, 0);
	assert_int_equal(r.list.count, 3);
	assert_end(&r.list.items[0].a, "leaf02", -1);
	assert_null(r.list.items[0].note);	/* spine01 is still there */
	assert_end(&r.list.items[1].a, "host003", -1);
	assert_non_null(r.list.items[1].note);
	assert_end(&r.list.items[2].a, "host004", -1);
	assert_non_null(r.list.items[2].note);
	run_free(&r);
}

static void several_changes_in_documented_order(void **state)
{
	static const struct test_cable changed[] = {
		C("leaf01", 2, "host001", 1), C("leaf01", 1, "host002", 1),
		C("leaf02", 1, "host003", 1), C("leaf02", 2, "host004", 1),
		L("leaf01", 9, "spine01", 1, EDR, 0),
		C("leaf01", 20, "leaf02", 20), C("leaf02", 5, "host009", 1),
		END,
	};
	static const enum ibtopo_finding_kind want[] = {
		IBTOPO_FIND_NODE_ADDED,		/* host009 */
		IBTOPO_FIND_LINK_MOVED,		/* host001/host002 swapped */
		IBTOPO_FIND_LINK_REMOVED,	/* leaf02:9 - spine01:2 */
		IBTOPO_FIND_LINK_ADDED,		/* leaf01:20 - leaf02:20 */
		IBTOPO_FIND_LINK_SPEED_CHANGED,	/* leaf01 - spine01 */
	};
	struct run r;

	run_diff(&r, base, changed, 0);
	assert_int_equal(r.list.count, TEST_ARRAY_SIZE(want));
	for (size_t i = 0; i < TEST_ARRAY_SIZE(want); i++)
		assert_int_equal(r.list.items[i].kind, want[i]);
	assert_end(&r.list.items[2].a, "leaf02", 9);
	assert_end(&r.list.items[3].a, "leaf01", 20);
	run_free(&r);
}

static void missing_fabric_is_einval(void **state)
{
	struct ibtopo_findings list = IBTOPO_FINDINGS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = mk(base, NULL);

	assert_int_equal(test_diff(&list, f, NULL, NULL, &err), IBTOPO_EINVAL);
	assert_string_equal(err.message, "no fabric to diff");
	assert_int_equal(test_diff(NULL, f, f, NULL, NULL), IBTOPO_EINVAL);
	ibtopo_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(identical_fabrics_have_no_changes),
		cmocka_unit_test(added_host_is_one_node_added),
		cmocka_unit_test(new_description_is_a_rename),
		cmocka_unit_test(unplugged_cable_is_link_removed),
		MOVE_TEST(host_cable_in_another_leaf_port_is_one_move),
		cmocka_unit_test(moved_cable_message_names_old_and_new),
		MOVE_TEST(host_cable_on_another_leaf_is_one_move),
		MOVE_TEST(uplink_moved_at_both_ends_is_one_move),
		MOVE_TEST(two_swapped_cables_are_one_swap),
		MOVE_TEST(hosts_swapped_between_leaves_are_one_swap),
		cmocka_unit_test(slower_link_is_speed_change),
		cmocka_unit_test(port_leaving_active_is_state_change),
		cmocka_unit_test(lid_changes_only_when_asked),
		cmocka_unit_test(removed_switch_hides_its_links),
		cmocka_unit_test(hosts_behind_a_removed_leaf_say_so),
		cmocka_unit_test(several_changes_in_documented_order),
		cmocka_unit_test(missing_fabric_is_einval),
	};

	return cmocka_run_group_tests_name("diff", tests, NULL, NULL);
}
