#!/bin/sh
# tap-cmocka.sh PROGRAM [ARG...] - run a cmocka test program for
# automake's tap-driver.sh (the LOG_COMPILER of every test without an
# extension, Makefile.am).
#
# cmocka 1.1.5 reports a skipped test as "not ok N # SKIP name", and
# tap-driver.sh counts a SKIP directive on "not ok" as FAIL; TAP means
# "ok N # SKIP". This rewrites exactly that line and passes everything
# else, the exit status included, through unchanged: a failed test stays
# "not ok", and a program whose every test skipped is SKIP as a whole
# (tap-driver.sh's rule).
set -u
exec 3>&1
rc=$({ { "$@" 3>&- 4>&-; echo $? >&4; } |
	sed -e 's/^not ok \([0-9][0-9]*\) # SKIP/ok \1 # SKIP/' >&3; } 4>&1)
exit "${rc:-99}"
