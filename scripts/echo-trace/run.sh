#!/bin/bash
# Finding where a keystroke's echo waits (issue 19; docs/benchmarks.md, "Typing while another session
# copies"). run.sh DIR [VAR=value ...]: one traced run of the echo during a Gatehouse copy, from the
# repository root, into DIR: the bench's output (out.txt), the hop traces of the agent, the server and
# the typist (t.PID, GATEHOUSE_ECHO_TRACE) and every task's CPU time and run-queue wait (sched.jsonl).
# Then: node scripts/echo-trace/hops.mjs DIR/t bulk-gatehouse; node scripts/echo-trace/summary.mjs DIR...
# PATHS=direct,jump,gatehouse for the other paths' copies too (hops exist only for gatehouse).
set -e
d=$1
shift
rm -rf "$d"
mkdir -p "$d"
here=$(dirname "$0")
node "$here/sched.mjs" "$d/sched.jsonl" &
sampler=$!
echo "start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >"$d/out.txt"
env "$@" GATEHOUSE_ECHO_TRACE="$d/t" BENCH_ECHO_KEYS=${BENCH_ECHO_KEYS:-100} BENCH_ECHO_BULK_PATHS=${PATHS:-gatehouse} \
  nice -n 10 node scripts/bench-gateway.mjs --only echo-bulk >>"$d/out.txt" 2>&1 &
bench=$!
echo $bench >"$d/bench.pid"
wait $bench || true
kill $sampler
echo "end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$d/out.txt"
