#!/bin/sh
# tools/funclen.sh FILE...: the functions longer than N lines (default
# 120) in the C files given, as FILE:LINE LENGTH SIGNATURE. Issue 22:
#   sh tools/funclen.sh lib/*/*.c src/*.c   prints nothing.
n=${N:-120}
for f in "$@"; do
awk -v f="$f" -v n="$n" '
/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { sig=$0; sl=NR }
/^\{/ { start=NR; name=sig }
/^\}/ { if (start) { len=NR-start+1; if (len>n) printf "%s:%d %d %s\n", f, start, len, name }; start=0 }
' "$f"
done
