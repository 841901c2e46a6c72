/*
 * kinds.c - the registry of finding kinds: one line per kind. The
 * descriptors live in the files of their areas (see findings-int.h).
 */
#include "findings/findings-int.h"

/* The descriptors, one per kind, in the files of their areas. */
extern const struct ibtopo__finding_kind ibtopo__kind_speed_downgrade;
extern const struct ibtopo__finding_kind ibtopo__kind_width_downgrade;
extern const struct ibtopo__finding_kind ibtopo__kind_cable_over_length;
extern const struct ibtopo__finding_kind ibtopo__kind_cable_underrated;
extern const struct ibtopo__finding_kind ibtopo__kind_loopback_cable;
extern const struct ibtopo__finding_kind ibtopo__kind_low_path_diversity;
extern const struct ibtopo__finding_kind ibtopo__kind_fat_tree_violation;
extern const struct ibtopo__finding_kind ibtopo__kind_missing_link;
extern const struct ibtopo__finding_kind ibtopo__kind_extra_link;
extern const struct ibtopo__finding_kind ibtopo__kind_miswired_link;
extern const struct ibtopo__finding_kind ibtopo__kind_missing_node;
extern const struct ibtopo__finding_kind ibtopo__kind_extra_node;
extern const struct ibtopo__finding_kind ibtopo__kind_speed_below_plan;
extern const struct ibtopo__finding_kind ibtopo__kind_width_below_plan;
extern const struct ibtopo__finding_kind ibtopo__kind_node_added;
extern const struct ibtopo__finding_kind ibtopo__kind_node_removed;
extern const struct ibtopo__finding_kind ibtopo__kind_node_renamed;
extern const struct ibtopo__finding_kind ibtopo__kind_link_added;
extern const struct ibtopo__finding_kind ibtopo__kind_link_removed;
extern const struct ibtopo__finding_kind ibtopo__kind_link_moved;
extern const struct ibtopo__finding_kind ibtopo__kind_link_speed_changed;
extern const struct ibtopo__finding_kind ibtopo__kind_link_width_changed;
extern const struct ibtopo__finding_kind ibtopo__kind_port_state_changed;
extern const struct ibtopo__finding_kind ibtopo__kind_lid_changed;
extern const struct ibtopo__finding_kind ibtopo__kind_port_errors;
extern const struct ibtopo__finding_kind ibtopo__kind_port_error_rate;
extern const struct ibtopo__finding_kind ibtopo__kind_link_flapping;
extern const struct ibtopo__finding_kind ibtopo__kind_cable_row_unmatched;
extern const struct ibtopo__finding_kind ibtopo__kind_rail_mismatch;
extern const struct ibtopo__finding_kind ibtopo__kind_failing_cable;
extern const struct ibtopo__finding_kind ibtopo__kind_high_ber;
extern const struct ibtopo__finding_kind ibtopo__kind_congested_port;
extern const struct ibtopo__finding_kind ibtopo__kind_duplicate_node_guid;
extern const struct ibtopo__finding_kind ibtopo__kind_duplicate_port_guid;
extern const struct ibtopo__finding_kind ibtopo__kind_duplicate_lid;
extern const struct ibtopo__finding_kind ibtopo__kind_duplicate_node_desc;
extern const struct ibtopo__finding_kind ibtopo__kind_mtu_mismatch;
extern const struct ibtopo__finding_kind ibtopo__kind_vl_mismatch;
extern const struct ibtopo__finding_kind ibtopo__kind_sm_state;
extern const struct ibtopo__finding_kind ibtopo__kind_firmware_mismatch;
extern const struct ibtopo__finding_kind ibtopo__kind_pkey_switch_drop;
extern const struct ibtopo__finding_kind ibtopo__kind_pkey_no_full_member;
extern const struct ibtopo__finding_kind ibtopo__kind_pkey_membership_mixed;
extern const struct ibtopo__finding_kind ibtopo__kind_dragonfly_violation;
extern const struct ibtopo__finding_kind ibtopo__kind_route_black_hole;
extern const struct ibtopo__finding_kind ibtopo__kind_route_loop;
extern const struct ibtopo__finding_kind ibtopo__kind_route_not_minimal;
extern const struct ibtopo__finding_kind ibtopo__kind_credit_loop;
extern const struct ibtopo__finding_kind ibtopo__kind_route_changed;
extern const struct ibtopo__finding_kind ibtopo__kind_route_load_changed;
extern const struct ibtopo__finding_kind ibtopo__kind_mcast_unreached;
extern const struct ibtopo__finding_kind ibtopo__kind_mcast_loop;
extern const struct ibtopo__finding_kind ibtopo__kind_mcast_dead_end;
extern const struct ibtopo__finding_kind ibtopo__kind_mcast_disconnected;
extern const struct ibtopo__finding_kind ibtopo__kind_cable_not_checked;
extern const struct ibtopo__finding_kind ibtopo__kind_port_not_active;

static const struct ibtopo__finding_kind *const kinds[IBTOPO_FIND_KIND_MAX_] = {
	/* link and cable checks: kinds_links.c */
	[IBTOPO_FIND_SPEED_DOWNGRADE] = &ibtopo__kind_speed_downgrade,
	[IBTOPO_FIND_WIDTH_DOWNGRADE] = &ibtopo__kind_width_downgrade,
	[IBTOPO_FIND_CABLE_OVER_LENGTH] = &ibtopo__kind_cable_over_length,
	[IBTOPO_FIND_CABLE_UNDERRATED] = &ibtopo__kind_cable_underrated,
	[IBTOPO_FIND_LOOPBACK_CABLE] = &ibtopo__kind_loopback_cable,
	/* topology: kinds_topology.c */
	[IBTOPO_FIND_LOW_PATH_DIVERSITY] = &ibtopo__kind_low_path_diversity,
	[IBTOPO_FIND_FAT_TREE_VIOLATION] = &ibtopo__kind_fat_tree_violation,
	/* validate: kinds_validate.c */
	[IBTOPO_FIND_MISSING_LINK] = &ibtopo__kind_missing_link,
	[IBTOPO_FIND_EXTRA_LINK] = &ibtopo__kind_extra_link,
	[IBTOPO_FIND_MISWIRED_LINK] = &ibtopo__kind_miswired_link,
	[IBTOPO_FIND_MISSING_NODE] = &ibtopo__kind_missing_node,
	[IBTOPO_FIND_EXTRA_NODE] = &ibtopo__kind_extra_node,
	[IBTOPO_FIND_SPEED_BELOW_PLAN] = &ibtopo__kind_speed_below_plan,
	[IBTOPO_FIND_WIDTH_BELOW_PLAN] = &ibtopo__kind_width_below_plan,
	/* diff: kinds_diff.c */
	[IBTOPO_FIND_NODE_ADDED] = &ibtopo__kind_node_added,
	[IBTOPO_FIND_NODE_REMOVED] = &ibtopo__kind_node_removed,
	[IBTOPO_FIND_NODE_RENAMED] = &ibtopo__kind_node_renamed,
	[IBTOPO_FIND_LINK_ADDED] = &ibtopo__kind_link_added,
	[IBTOPO_FIND_LINK_REMOVED] = &ibtopo__kind_link_removed,
	[IBTOPO_FIND_LINK_MOVED] = &ibtopo__kind_link_moved,
	[IBTOPO_FIND_LINK_SPEED_CHANGED] = &ibtopo__kind_link_speed_changed,
	[IBTOPO_FIND_LINK_WIDTH_CHANGED] = &ibtopo__kind_link_width_changed,
	[IBTOPO_FIND_PORT_STATE_CHANGED] = &ibtopo__kind_port_state_changed,
	[IBTOPO_FIND_LID_CHANGED] = &ibtopo__kind_lid_changed,
	/* port health: kinds_health.c */
	[IBTOPO_FIND_PORT_ERRORS] = &ibtopo__kind_port_errors,
	[IBTOPO_FIND_PORT_ERROR_RATE] = &ibtopo__kind_port_error_rate,
	[IBTOPO_FIND_LINK_FLAPPING] = &ibtopo__kind_link_flapping,
	/* cable inventory rows: kinds_links.c */
	[IBTOPO_FIND_CABLE_ROW_UNMATCHED] = &ibtopo__kind_cable_row_unmatched,
	/* topology, rail-optimized fabrics: kinds_topology.c */
	[IBTOPO_FIND_RAIL_MISMATCH] = &ibtopo__kind_rail_mismatch,
	[IBTOPO_FIND_FAILING_CABLE] = &ibtopo__kind_failing_cable,
	/* topology, Dragonfly+ fabrics: kinds_topology.c */
	[IBTOPO_FIND_DRAGONFLY_VIOLATION] = &ibtopo__kind_dragonfly_violation,
	/* routing: kinds_routes.c */
	[IBTOPO_FIND_ROUTE_BLACK_HOLE] = &ibtopo__kind_route_black_hole,
	[IBTOPO_FIND_ROUTE_LOOP] = &ibtopo__kind_route_loop,
	[IBTOPO_FIND_ROUTE_NOT_MINIMAL] = &ibtopo__kind_route_not_minimal,
	[IBTOPO_FIND_CREDIT_LOOP] = &ibtopo__kind_credit_loop,
	[IBTOPO_FIND_ROUTE_CHANGED] = &ibtopo__kind_route_changed,
	[IBTOPO_FIND_ROUTE_LOAD_CHANGED] = &ibtopo__kind_route_load_changed,
	[IBTOPO_FIND_MCAST_UNREACHED] = &ibtopo__kind_mcast_unreached,
	[IBTOPO_FIND_MCAST_LOOP] = &ibtopo__kind_mcast_loop,
	[IBTOPO_FIND_MCAST_DEAD_END] = &ibtopo__kind_mcast_dead_end,
	[IBTOPO_FIND_MCAST_DISCONNECTED] = &ibtopo__kind_mcast_disconnected,
	/* link and cable checks, added later: kinds_links.c */
	[IBTOPO_FIND_CABLE_NOT_CHECKED] = &ibtopo__kind_cable_not_checked,
	[IBTOPO_FIND_PORT_NOT_ACTIVE] = &ibtopo__kind_port_not_active,
	/* port health, BER and congestion: kinds_health.c */
	[IBTOPO_FIND_HIGH_BER] = &ibtopo__kind_high_ber,
	[IBTOPO_FIND_CONGESTED_PORT] = &ibtopo__kind_congested_port,
	[IBTOPO_FIND_DUPLICATE_NODE_GUID] = &ibtopo__kind_duplicate_node_guid,
	[IBTOPO_FIND_DUPLICATE_PORT_GUID] = &ibtopo__kind_duplicate_port_guid,
	[IBTOPO_FIND_DUPLICATE_LID] = &ibtopo__kind_duplicate_lid,
	[IBTOPO_FIND_DUPLICATE_NODE_DESC] = &ibtopo__kind_duplicate_node_desc,
	[IBTOPO_FIND_MTU_MISMATCH] = &ibtopo__kind_mtu_mismatch,
	[IBTOPO_FIND_VL_MISMATCH] = &ibtopo__kind_vl_mismatch,
	[IBTOPO_FIND_SM_STATE] = &ibtopo__kind_sm_state,
	[IBTOPO_FIND_FIRMWARE_MISMATCH] = &ibtopo__kind_firmware_mismatch,
	[IBTOPO_FIND_PKEY_SWITCH_DROP] = &ibtopo__kind_pkey_switch_drop,
	[IBTOPO_FIND_PKEY_NO_FULL_MEMBER] = &ibtopo__kind_pkey_no_full_member,
	[IBTOPO_FIND_PKEY_MEMBERSHIP_MIXED] = &ibtopo__kind_pkey_membership_mixed,
};

const struct ibtopo__finding_kind *
ibtopo__finding_kind(enum ibtopo_finding_kind kind)
{
	if ((size_t)kind >= IBTOPO__ARRAY_SIZE(kinds))
		return NULL;
	return kinds[kind];
}
