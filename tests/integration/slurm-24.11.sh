#!/bin/sh
# slurm-24.11.sh - tests/integration/slurm-real.sh with slurmctld 24.11
# of Debian 13 (trixie), from a chroot: topology/tree and topology/block
# (issue 35).
SLURM_SUITE=trixie
SLURM_FORMATS="slurm slurm-block"
. "${top_srcdir:-.}/tests/integration/slurm-real.sh"
