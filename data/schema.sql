-- ibtopo snapshot database: the schema, as migrations.
--
-- This file is compiled into libibtopo (lib/store.c); the installed copy
-- is for people reading the database with the sqlite3 shell.
--
-- Each line "-- @version N" starts migration N. A database records the
-- last migration it has in PRAGMA user_version; opening it for writing
-- applies the missing ones in order, in one transaction. Never edit a
-- migration once released: add a new one below. A database whose
-- user_version is newer than the last migration here is refused.
--
-- GUIDs are 64-bit values stored as SQLite's signed INTEGER (same bits):
--   SELECT printf('0x%016x', guid), description FROM nodes;
-- Speeds and widths are the bit masks of enum ibtopo_speed / ibtopo_width
-- in ibtopo.h; taken_at is UTC seconds since the epoch.
--
-- Rows of one snapshot are reached through snapshot_id (indexed) so that
-- loading a snapshot is three index range scans.

-- @version 1
CREATE TABLE snapshots (
	id INTEGER PRIMARY KEY AUTOINCREMENT,	-- never reused: REFs stay put
	label TEXT,
	taken_at INTEGER NOT NULL,		-- UTC seconds
	source TEXT,				-- "discover:mlx5_0/1", "file:/path"
	host TEXT,
	switches INTEGER NOT NULL DEFAULT 0,
	cas INTEGER NOT NULL DEFAULT 0,
	routers INTEGER NOT NULL DEFAULT 0,
	links INTEGER NOT NULL DEFAULT 0,
	partial INTEGER NOT NULL DEFAULT 0	-- 1 = discovery incomplete
);
CREATE INDEX snapshots_label ON snapshots(label);

CREATE TABLE nodes (
	id INTEGER PRIMARY KEY,
	snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
	type INTEGER NOT NULL,			-- 1 ca, 2 switch, 3 router
	guid INTEGER NOT NULL,
	sysimg_guid INTEGER NOT NULL DEFAULT 0,
	description TEXT NOT NULL DEFAULT '',
	vendor_id INTEGER NOT NULL DEFAULT 0,
	device_id INTEGER NOT NULL DEFAULT 0,
	revision INTEGER NOT NULL DEFAULT 0,
	nports INTEGER NOT NULL,
	enhanced_port0 INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX nodes_snapshot ON nodes(snapshot_id);

CREATE TABLE ports (
	id INTEGER PRIMARY KEY,
	snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
	node_id INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
	num INTEGER NOT NULL,			-- 0 = switch management port
	ext_num INTEGER NOT NULL DEFAULT 0,
	guid INTEGER NOT NULL DEFAULT 0,
	lid INTEGER NOT NULL DEFAULT 0,
	lmc INTEGER NOT NULL DEFAULT 0,
	state INTEGER NOT NULL DEFAULT 0,	-- IBA PortState
	phys_state INTEGER NOT NULL DEFAULT 0,	-- IBA PortPhysicalState
	width_supported INTEGER NOT NULL DEFAULT 0,
	width_enabled INTEGER NOT NULL DEFAULT 0,
	width_active INTEGER NOT NULL DEFAULT 0,
	speed_supported INTEGER NOT NULL DEFAULT 0,
	speed_enabled INTEGER NOT NULL DEFAULT 0,
	speed_active INTEGER NOT NULL DEFAULT 0,
	cap_mask INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ports_snapshot ON ports(snapshot_id);
CREATE INDEX ports_node ON ports(node_id);

CREATE TABLE links (
	id INTEGER PRIMARY KEY,
	snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
	a_guid INTEGER NOT NULL,		-- node GUID of end a (the lower)
	a_port INTEGER NOT NULL,
	b_guid INTEGER NOT NULL,
	b_port INTEGER NOT NULL,
	speed INTEGER NOT NULL DEFAULT 0,	-- active speed bit
	width INTEGER NOT NULL DEFAULT 0	-- active width bit
);
CREATE INDEX links_snapshot ON links(snapshot_id);

CREATE TABLE cables (
	link_id INTEGER PRIMARY KEY REFERENCES links(id) ON DELETE CASCADE,
	snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
	media INTEGER NOT NULL DEFAULT 0,	-- enum ibtopo_media
	length_m REAL NOT NULL DEFAULT 0,	-- 0 = unknown
	rated_speed INTEGER NOT NULL DEFAULT 0,	-- speed bit, 0 = unknown
	vendor TEXT,
	part_number TEXT,
	serial TEXT
);
CREATE INDEX cables_snapshot ON cables(snapshot_id);

-- @version 2
-- Why a snapshot is partial: the first SMP that went unanswered and its
-- directed route, e.g. "1 SMP went unanswered (first: the peer of 'leaf02'
-- port 8 at DR path 0,1,8 did not answer NodeInfo)". NULL for snapshots
-- that are complete, and for partial ones stored before version 2.
ALTER TABLE snapshots ADD COLUMN partial_reason TEXT;

-- @version 3
-- PMA port counters (discover --counters, import --counters), one row per
-- port whose counters were read, named like the links name their ends:
-- node GUID and port number. Counter columns are NULL when not read;
-- values are unsigned 64-bit stored in INTEGER (same bits). read_at_ms is
-- UTC milliseconds; `extended` has bit 1 << (enum ibtopo_counter) set for
-- a 64-bit value from PortCountersExtended.
CREATE TABLE port_counters (
	snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
	node_guid INTEGER NOT NULL,
	port INTEGER NOT NULL,
	read_at_ms INTEGER NOT NULL DEFAULT 0,
	extended INTEGER NOT NULL DEFAULT 0,
	symbol_errors INTEGER,
	link_error_recovery INTEGER,
	link_downed INTEGER,
	rcv_errors INTEGER,
	rcv_remote_phys_errors INTEGER,
	rcv_switch_relay_errors INTEGER,
	xmit_discards INTEGER,
	xmit_constraint_errors INTEGER,
	rcv_constraint_errors INTEGER,
	local_link_integrity_errors INTEGER,
	excessive_buffer_overrun_errors INTEGER,
	vl15_dropped INTEGER,
	xmit_wait INTEGER,
	xmit_data INTEGER,
	rcv_data INTEGER,
	xmit_pkts INTEGER,
	rcv_pkts INTEGER,
	PRIMARY KEY (snapshot_id, node_guid, port)
);

-- @version 4
-- Switch forwarding tables (discover --routes, import --routes): one row
-- per switch whose linear forwarding table was read, the out-port of each
-- destination LID 0..top as one byte each (255: no route) in one BLOB of
-- top + 1 bytes, so a 1,620-switch fabric with 13,284 LIDs is 1,620 rows,
-- not 21.5 million. Read it with
--   SELECT printf('0x%016x', node_guid), top, hex(substr(ports, lid + 1, 1))
--   FROM lfts;
-- routing_engine: the SM's engine that computed them, when known.
ALTER TABLE snapshots ADD COLUMN routing_engine TEXT;
CREATE TABLE lfts (
	snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
	node_guid INTEGER NOT NULL,
	top INTEGER NOT NULL,
	ports BLOB NOT NULL,
	PRIMARY KEY (snapshot_id, node_guid)
);

-- @version 5
-- Several fabrics in one database: every snapshot belongs to a fabric,
-- named by --fabric or chosen on saving (the fabric whose latest
-- snapshot shares at least half of its switch GUIDs, else a new one).
-- Labels and `latest~N` are read within a fabric; ids stay global.
-- Snapshots stored before version 5 all join the fabric 'default'.
-- Recorded with a discovered snapshot (NULL when not known): the subnet
-- prefix (PortInfo GidPrefix) and the local CA and port it was taken
-- through, the master SM's LID (PortInfo MasterSMLID) and port GUID
-- (SMInfo, where the SM answers).
CREATE TABLE fabrics (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	name TEXT NOT NULL UNIQUE
);
ALTER TABLE snapshots ADD COLUMN fabric_id INTEGER REFERENCES fabrics(id);
ALTER TABLE snapshots ADD COLUMN subnet_prefix INTEGER;
ALTER TABLE snapshots ADD COLUMN local_ca TEXT;
ALTER TABLE snapshots ADD COLUMN local_port INTEGER;
ALTER TABLE snapshots ADD COLUMN sm_lid INTEGER;
ALTER TABLE snapshots ADD COLUMN sm_guid INTEGER;
INSERT INTO fabrics (name)
	SELECT 'default' WHERE EXISTS (SELECT 1 FROM snapshots);
UPDATE snapshots SET fabric_id = (SELECT id FROM fabrics WHERE name = 'default');
CREATE INDEX snapshots_fabric ON snapshots(fabric_id, id);

-- @version 6
-- Node GUIDs that two nodes answer with (cloned firmware, a board
-- replaced with its old GUID). The model holds one node per GUID, so a
-- reader or a sweep merges the two and records here the port of that GUID
-- that two different peers are cabled to, with those peers (node GUID and
-- port); port and peers 0 when not known (two records of one GUID in a
-- dump). `analyze` reports each GUID as a duplicate-node-guid finding.
CREATE TABLE guid_clashes (
	snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
	guid INTEGER NOT NULL,
	port INTEGER NOT NULL DEFAULT 0,
	a_guid INTEGER NOT NULL DEFAULT 0,
	a_port INTEGER NOT NULL DEFAULT 0,
	b_guid INTEGER NOT NULL DEFAULT 0,
	b_port INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX guid_clashes_snapshot ON guid_clashes(snapshot_id);

-- @version 7
-- A port's MTU and VLs from its PortInfo (live sweeps, cache files), one
-- column of four IBA encodings, 4 bits each: MTUCap | NeighborMTU << 4 |
-- VLCap << 8 | OperVLs << 12 (MTU 1 = 256 .. 5 = 4096 bytes; VLs 1 = VL0,
-- 2 = VL0-1, 3 = VL0-3, 4 = VL0-7, 5 = VL0-14); 0 = not known, as in
-- every port stored before version 7. Read it with
--   SELECT mtu_vls & 15 AS mtu_cap, mtu_vls >> 4 & 15 AS neighbor_mtu,
--          mtu_vls >> 8 & 15 AS vl_cap, mtu_vls >> 12 & 15 AS oper_vls
--   FROM ports;
ALTER TABLE ports ADD COLUMN mtu_vls INTEGER NOT NULL DEFAULT 0;

-- @version 8
-- Subnet managers a live sweep found: every port whose CapabilityMask
-- says IsSM (a switch's port 0), and its SMInfo (answered = 0 when it
-- did not answer; then guid, priority, state and act_count are 0).
-- state: SMInfo SMState (0 not active, 1 discovering, 2 standby, 3
-- master). sms_read: 1 when the sweep looked for them (a snapshot
-- without rows then had none); 0 for files and older snapshots.
ALTER TABLE snapshots ADD COLUMN sms_read INTEGER NOT NULL DEFAULT 0;
CREATE TABLE sms (
	snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
	node_guid INTEGER NOT NULL,
	port INTEGER NOT NULL,
	answered INTEGER NOT NULL DEFAULT 0,
	guid INTEGER NOT NULL DEFAULT 0,
	priority INTEGER NOT NULL DEFAULT 0,
	state INTEGER NOT NULL DEFAULT 0,
	act_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sms_snapshot ON sms(snapshot_id);

-- @version 9
-- Node firmware where an input carried it (ibdiagnet2.db_csv NODES_INFO,
-- through --cables): the version major.minor.subminor and the PSID
-- (NULL when the row had none). A node without a row had no firmware
-- read. `analyze` compares the nodes of one model and PSID
-- (firmware-mismatch); `show nodes` lists them.
CREATE TABLE firmware (
	snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
	node_guid INTEGER NOT NULL,
	major INTEGER NOT NULL,
	minor INTEGER NOT NULL,
	subminor INTEGER NOT NULL,
	psid TEXT,
	PRIMARY KEY (snapshot_id, node_guid)
);

-- @version 10
-- Partition keys a live sweep read: the PKeyTable of every CA port that
-- is up and of every switch port that enforces partitions. keys: the
-- valid entries in table order, as hex words separated by blanks
-- ('0xffff 0x8101'; bit 15 set: a full member); enforce: a switch port's
-- PortInfo PartitionEnforcementInbound (1) and Outbound (2). A port
-- without a row had no table read.
CREATE TABLE pkeys (
	snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
	node_guid INTEGER NOT NULL,
	port INTEGER NOT NULL,
	enforce INTEGER NOT NULL DEFAULT 0,
	keys TEXT NOT NULL DEFAULT ''
);
CREATE INDEX pkeys_snapshot ON pkeys(snapshot_id);
-- A master SM's SMInfo read a second time, a moment after the first:
-- reread = 1 then, and act_count2 its ActCount that time.
ALTER TABLE sms ADD COLUMN reread INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sms ADD COLUMN act_count2 INTEGER NOT NULL DEFAULT 0;

-- @version 11
-- Multicast forwarding (issue 36). mfts: each switch's multicast
-- forwarding table, one row a switch: mlids holds its MLIDs with a port,
-- ascending, 2 bytes each (big-endian), masks their port masks, stride
-- bytes each (bit p of byte p / 8: port p; stride = (NumPorts + 8) / 8).
-- mcast_members: the multicast groups the SA listed (MCMemberRecord),
-- one row a member (port_guid 0: a group without members); mgid is 16
-- bytes, join_state the MCMemberRecord JoinState bits (1 full, 2 non,
-- 4 send-only non, 8 send-only full). mcast_read: 1 when a live sweep
-- asked the SA (a snapshot without rows then had no groups).
ALTER TABLE snapshots ADD COLUMN mcast_read INTEGER NOT NULL DEFAULT 0;
CREATE TABLE mfts (
	snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
	node_guid INTEGER NOT NULL,
	stride INTEGER NOT NULL,
	mlids BLOB NOT NULL,
	masks BLOB NOT NULL,
	PRIMARY KEY (snapshot_id, node_guid)
);
CREATE TABLE mcast_members (
	snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
	mgid BLOB NOT NULL,
	mlid INTEGER NOT NULL,
	pkey INTEGER NOT NULL,
	port_guid INTEGER NOT NULL,
	join_state INTEGER NOT NULL
);
CREATE INDEX mcast_members_snapshot ON mcast_members(snapshot_id);
