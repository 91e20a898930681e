#!/usr/bin/env bash
# Benchmarks `amldoctor diagnose` against ripgrep and GNU grep running the catalogue's
# patterns over the same generated trees, and the scan with one deliberately slow rule
# (a Unicode word boundary) added. Needs hyperfine, ripgrep and GNU time
# (apt-get install hyperfine ripgrep time). Results go to bench/results-*.md.
#   bench/run.sh [WORKDIR]      (default /tmp/amldoctor-bench; needs ~1.2 GB free)
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-/tmp/amldoctor-bench}"
cargo build --release --quiet
cargo build --release --quiet --example bench_corpus
bin=target/release/amldoctor
gen=target/release/examples/bench_corpus

run() {
  local name="$1" mb="$2" files="$3"
  local dir="$work/$name"
  "$gen" "$dir" "$mb" "$files"
  sync
  hyperfine --warmup 1 --runs "${RUNS:-5}" --ignore-failure --export-markdown "bench/results-$name.md" \
    -n "amldoctor diagnose" "$bin diagnose $dir/tree -o json --fail-on never > /dev/null" \
    -n "amldoctor diagnose + slow rule" "$bin diagnose $dir/tree --rules $dir/slow-rule -o json --fail-on never > /dev/null" \
    -n "rg -c --no-unicode -f" "rg -c --no-unicode -f $dir/patterns.rg.txt $dir/tree > /dev/null" \
    -n "grep -c -E -f" "grep -r -c -E -f $dir/patterns.grep.txt $dir/tree > /dev/null" \
    -n "cat (the read floor)" "find $dir/tree -type f -exec cat {} + > /dev/null"
  echo "peak memory (max resident set size, KiB):"
  /usr/bin/time -f "  amldoctor diagnose: %M" "$bin" diagnose "$dir/tree" -o json --fail-on never > /dev/null
  /usr/bin/time -f "  rg -c --no-unicode -f: %M" rg -c --no-unicode -f "$dir/patterns.rg.txt" "$dir/tree" > /dev/null || true
  # ripgrep's default (Unicode) mode with this pattern set is bounded to 120 s: it
  # does not finish the 100 MB tree in that time on the reference machine.
  timeout 120 rg -c -f "$dir/patterns.rg.txt" "$dir/tree" > /dev/null && echo "  rg -c -f (Unicode) finished" || echo "  rg -c -f (Unicode): not finished within 120 s"
}

run small 100 2000
run large 1024 200

# The same lines as JSON-structured logs (every message escaped): the normalisation path.
"$gen" "$work/json" json 100 2000
hyperfine --warmup 1 --runs "${RUNS:-5}" --ignore-failure --export-markdown bench/results-json.md \
  -n "amldoctor diagnose (JSON lines)" "$bin diagnose $work/json/tree -o json --fail-on never > /dev/null" \
  -n "rg -c --no-unicode -f (JSON lines)" "rg -c --no-unicode -f $work/small/patterns.rg.txt $work/json/tree > /dev/null" \
  -n "cat (JSON lines)" "find $work/json/tree -type f -exec cat {} + > /dev/null"

# A healthy long-running job's tree (issue 13): 6 nodes × 8 processes, half sys lines
# (progress, heartbeat, upload), half stderr chatter; 1 GB, and 512 MB for linearity.
# Timed against rg with the catalogue's patterns in the same hyperfine run.
"$gen" "$work" prs-busy 1024
"$gen" "$work/half" prs-busy 512
cp "$work/large/patterns.rg.txt" "$work/patterns.rg.txt"
busy="$work/prs-busy"
hyperfine --warmup 1 --runs "${RUNS:-3}" --ignore-failure --export-markdown bench/results-prs-busy.md \
  -n "amldoctor diagnose logs/sys" "$bin diagnose $busy/logs/sys -o json --fail-on never > /dev/null" \
  -n "rg -c --no-unicode -f logs/sys" "rg -c --no-unicode -f $work/patterns.rg.txt $busy/logs/sys > /dev/null" \
  -n "amldoctor diagnose logs/user" "$bin diagnose $busy/logs/user -o json --fail-on never > /dev/null" \
  -n "rg -c --no-unicode -f logs/user" "rg -c --no-unicode -f $work/patterns.rg.txt $busy/logs/user > /dev/null" \
  -n "amldoctor diagnose (whole tree)" "$bin diagnose $busy -o json --fail-on never > /dev/null" \
  -n "rg -c --no-unicode -f (whole tree)" "rg -c --no-unicode -f $work/patterns.rg.txt $busy > /dev/null" \
  -n "amldoctor diagnose (512 MB tree)" "$bin diagnose $work/half/prs-busy -o json --fail-on never > /dev/null"
/usr/bin/time -f "busy ParallelRunStep tree, 1 GB: max RSS %M KiB" "$bin" diagnose "$busy" -o json --fail-on never > /dev/null

# A 200-node ParallelRunStep tree (about 10,000 files, 1.5 GB): one streaming pass.
"$gen" "$work" prs 200
/usr/bin/time -f "ParallelRunStep tree, 200 nodes: %e s, max RSS %M KiB" "$bin" diagnose "$work/prs" -o json --fail-on never > /dev/null

# The other shapes users have (start-up, a markdown paste, 10,000 small files, one 2 GB
# file), each against rg and cat: bench/shapes.sh, results in bench/results-shapes*.md.
bench/shapes.sh "$work"
