#!/bin/sh
# Install what ibtopo needs to build, test and run its demo on Debian 12.
# Runs apt-get as root, or through sudo when not root.
set -eu
pkgs="autoconf automake libtool pkg-config make gcc
libibnetdisc-dev libibmad-dev libibumad-dev libopensm-dev
libsqlite3-dev libgraphviz-dev libigraph-dev libjansson-dev libcmocka-dev
libmicrohttpd-dev libyaml-dev libcrypt-dev zlib1g-dev prometheus curl
ibsim-utils infiniband-diags opensm graphviz fonts-dejavu-core sqlite3 python3
valgrind shellcheck clang-format chromium python3-docutils bash-completion
slurmctld slurm-client munge python3-yaml python3-jsonschema debootstrap strace
python3-networkx"
if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
echo "ibtopo: build and test packages installed"
