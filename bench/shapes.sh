#!/usr/bin/env bash
# The input shapes users have that bench/run.sh does not time, each against ripgrep with
# the catalogue's patterns and `cat` (the read floor) in the same hyperfine run: the
# start-up of `explain` and of a small `diagnose`, a markdown paste (an issue body of
# fenced logs), 10,000 small files and one 2 GB file. Results go to
# bench/results-shapes-*.md. Needs hyperfine and ripgrep (apt-get install hyperfine
# ripgrep) and ~2.2 GB free in WORKDIR.
#   bench/shapes.sh [WORKDIR]      (default /tmp/amldoctor-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-/tmp/amldoctor-bench}"
runs="${RUNS:-5}"
cargo build --release --quiet
cargo build --release --quiet --example bench_corpus
bin=target/release/amldoctor
gen=target/release/examples/bench_corpus
mkdir -p "$work"

# Start-up: one 8 KB log (a real container log), and explain.
small="$work/small.log"
head -c 8192 tests/fixtures/logs/server-0.4.13-old-image-flask2.log > "$small"
"$gen" "$work/patterns-only" 1 1 > /dev/null
patterns="$work/patterns-only/patterns.rg.txt"
hyperfine -N --warmup 5 --runs "${STARTUP_RUNS:-50}" --ignore-failure --export-markdown bench/results-shapes-startup.md \
  -n "amldoctor explain 424" "$bin explain 424" \
  -n "amldoctor diagnose (8 KB log)" "$bin diagnose $small -o json --fail-on never" \
  -n "rg -c --no-unicode -f (8 KB log)" "rg -c --no-unicode -f $patterns $small" \
  -n "cat (8 KB log)" "cat $small" \
  -n "amldoctor --version" "$bin --version"

# A markdown paste: every wild-corpus excerpt as an issue body would hold it (a heading,
# a sentence, the log fenced), 20 times over.
md="$work/paste.md"
: > "$md"
for i in $(seq 20); do
  for f in tests/fixtures/wild/*.txt; do
    printf '### %s (%s)\n\nThe deployment fails with this output:\n\n```text\n' "$(basename "$f" .txt)" "$i" >> "$md"
    cat "$f" >> "$md"
    printf '\n```\n\n' >> "$md"
  done
done
# 10,000 small files (100 MB) and one 2 GB file of the plain-log shape.
"$gen" "$work/many" 100 10000 > /dev/null
"$gen" "$work/one" 2048 1 > /dev/null
sync
for shape in md many one; do
  case "$shape" in
    md) target="$md" ;;
    many) target="$work/many/tree" ;;
    one) target="$work/one/tree" ;;
  esac
  hyperfine --warmup 1 --runs "$runs" --ignore-failure --export-markdown "bench/results-shapes-$shape.md" \
    -n "amldoctor diagnose" "$bin diagnose $target -o json --fail-on never > /dev/null" \
    -n "rg -c --no-unicode -f" "rg -c --no-unicode -f $patterns $target > /dev/null" \
    -n "cat" "find $target -type f -exec cat {} + > /dev/null"
  /usr/bin/time -f "  $shape: amldoctor max RSS %M KiB" "$bin" diagnose "$target" -o json --fail-on never > /dev/null
done
