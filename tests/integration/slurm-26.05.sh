#!/bin/sh
# slurm-26.05.sh - tests/integration/slurm-real.sh with slurmctld 26.05
# of Debian sid, from a chroot: topology/tree, topology/block and
# topology.yaml (issue 35).
SLURM_SUITE=sid
SLURM_FORMATS="slurm slurm-block slurm-yaml"
. "${top_srcdir:-.}/tests/integration/slurm-real.sh"
