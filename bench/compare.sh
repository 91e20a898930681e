#!/usr/bin/env bash
# Times two amldoctor binaries (before and after a change) on the same generated trees,
# every input shape the scan has: plain inference-server logs in many small files and in
# a few large ones, the same lines as JSON-structured logs (the normalising path), and a
# busy ParallelRunStep job. Needs only bash and GNU time; prints the median of RUNS
# (default 5) wall-clock times per tree and binary, alternating the two so that cache
# and frequency drift fall on both.
#   bench/compare.sh OLD_BIN NEW_BIN [WORKDIR]   (default /tmp/amldoctor-compare; ~1 GB free)
set -euo pipefail
cd "$(dirname "$0")/.."
old="$1" new="$2" work="${3:-/tmp/amldoctor-compare}"
cargo build --release --quiet --example bench_corpus
gen=target/release/examples/bench_corpus
[ -d "$work/small/tree" ] || "$gen" "$work/small" 100 2000 > /dev/null
[ -d "$work/large/tree" ] || "$gen" "$work/large" 400 40 > /dev/null
[ -d "$work/json/tree" ] || "$gen" "$work/json" json 100 2000 > /dev/null
[ -d "$work/prs-busy" ] || "$gen" "$work" prs-busy 256 > /dev/null
millis() { local s e; s=$(date +%s%N); "$@" > /dev/null || true; e=$(date +%s%N); echo $(((e - s) / 1000000)); }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
printf '| tree | before (ms) | after (ms) | change |\n|---|---:|---:|---:|\n'
for tree in small/tree large/tree json/tree prs-busy; do
  dir="$work/$tree"
  "$old" diagnose "$dir" -o json --fail-on never > /dev/null || true   # warm the cache
  : > "$work/old.t"; : > "$work/new.t"
  for _ in $(seq "${RUNS:-5}"); do
    millis "$old" diagnose "$dir" -o json --fail-on never >> "$work/old.t"
    millis "$new" diagnose "$dir" -o json --fail-on never >> "$work/new.t"
  done
  a=$(median < "$work/old.t"); b=$(median < "$work/new.t")
  printf '| %s | %s | %s | %+.1f %% |\n' "$tree" "$a" "$b" "$(echo "($b - $a) * 100 / $a" | bc -l)"
done
