-------------------------------------------------------
Port=39 Lid=0x0002 GUID=0x1000000000000200 Device=53000 Port Name=leaf01/P39
-------------------------------------------------------
symbol_error_counter=0x000000000000000c
link_error_recovery_counter=0x0000000000000000
link_down_counter=0x0000000000000003
port_rcv_errors=0x0000000000000000
port_rcv_remote_physical_errors=0x0000000000000000
port_rcv_switch_relay_errors=0x0000000000000000
port_xmit_discard=0x0000000000000007
port_xmit_constraint_errors=0x0000000000000000
port_rcv_constraint_errors=0x0000000000000000
local_link_integrity_errors=0x0000000000000000
excessive_buffer_errors=0x0000000000000002
vl15_dropped=0x0000000000000000
port_xmit_data=0x00000000ffffffff
port_rcv_data=0x00000000000003e8
port_xmit_pkts=0x000000000000000a
port_rcv_pkts=0x000000000000000a
port_xmit_wait=0x0000000000000000
port_xmit_data_extended=0x0000001cbe991a14
port_rcv_data_extended=0x00000000000007d0
port_xmit_pkts_extended=NA
port_rcv_pkts_extended=NA
port_unicast_xmit_pkts=0x0000000000000014
-------------------------------------------------------
Port=1 Lid=0x000b GUID=0x2000000000000101 Device=4123 Port Name=host01/U1/P1
-------------------------------------------------------
symbol_error_counter=0x0000000000000000
link_down_counter=0x0000000000000000
port_rcv_errors=0x0000000000000005
port_xmit_data=NA
-------------------------------------------------------
Port=1 Lid=0x0063 GUID=0x9900000000000101 Device=4123 Port Name=gone/U1/P1
-------------------------------------------------------
symbol_error_counter=0x0000000000000001
