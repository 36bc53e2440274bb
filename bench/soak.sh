#!/usr/bin/env bash
# Soak (issue 47; not in CI): seeded chaos rounds with steady job churn for a given time, on a cluster of its own,
# while the operator processes are sampled; then a report of every finding with its seed and of how the processes
# grew (docs/fault-tests.md, "Soak").
#
#   bench/soak.sh --minutes=M [--seed=S] [--out=DIR] [options]
#
# Starts a fresh local control plane (e2e/cluster.sh, state in $STINT_CLUSTER_DIR, default
# ~/.cache/stint/soak-cluster), then runs ChaosIT again and again until M minutes have passed (the last run started
# in time runs to its end), each run with a seed of its own derived from the soak's seed and recorded, so that any
# finding replays alone: mvn -B verify -pl e2e -Dit.test=ChaosIT -Dstint.chaos.seed=<run seed>
# [-Dstint.chaos.rounds=R -Dstint.chaos.faults=LIST as the soak ran]. ChaosIT's own driving is the churn: each round
# creates jobs and moves every job a step (suspend, resume, finish, delete), and each run ends by deleting its
# namespace. Meanwhile every 30 s each live Stint process of this cluster (stint-operator.jar in its command line,
# KUBECONFIG under $STINT_CLUSTER_DIR; ChaosIT starts them with -Dstint.operator.metrics=true, so each serves
# /metrics on a port of its own, read from its --metrics-port) is sampled: RSS and threads (/proc/<pid>/status),
# open fds, TCP connections to the API server (its open watches and its request connections: no metric counts open
# watches), and from /metrics jvm_threads_live_threads, stint_heap_live_bytes, the heap used, the jobs in its cache
# (sum of stint_jobs), its watch requests, every attempt (stint_kube_api_requests_total{verb="watch"}: a watch
# retried while the API server is down counts each try), and deaf watches restarted (stint_watch_restarts_total).
# Samples are per pid with the process's start time: ChaosIT kills and replaces operators (KILL_OPERATOR,
# PAUSE_LEADER; with every fault kind no process lived past 90 s in the trial), so each process lifetime is a series
# of its own, and a slope needs lifetimes of minutes: --faults without those two kinds.
# Writes DIR/soak.md (rounds, faults, findings with their seeds, per metric start/end/slope), DIR/*.png,
# DIR/samples.csv, DIR/runs.tsv and DIR/runs/<n>/ (each run's tally, ChaosIT output and operator logs).
#
# Options:
#   --minutes=M         how long to keep starting chaos runs (default 120)
#   --seed=S            the soak's seed (default random, printed and recorded); run n's seed is derived from S and n
#   --rounds=R          rounds per ChaosIT run (default 10)
#   --faults=LIST       -Dstint.chaos.faults of every run (default all); without KILL_OPERATOR and PAUSE_LEADER one
#                       operator process lives through each run, which is what a leak shows in
#   --interval=S        seconds between samples (default 30)
#   --out=DIR           report folder (default bench/reports/<yyyy-mm-dd-HHMM>-soak); one that holds a soak is
#                       continued (its seed, start, runs and samples go on): a second phase with other --faults
#   --report-only       only (re)write DIR/soak.md and the plots from DIR's samples and runs (needs --out)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MINUTES=120; SEED=""; OUT=""; ROUNDS=10; FAULTS=all; INTERVAL=30; REPORT_ONLY=""
ARGS="$*"
for a in "$@"; do
  case "$a" in
    --minutes=*) MINUTES="${a#*=}" ;;
    --seed=*) SEED="${a#*=}" ;;
    --rounds=*) ROUNDS="${a#*=}" ;;
    --faults=*) FAULTS="${a#*=}" ;;
    --interval=*) INTERVAL="${a#*=}" ;;
    --out=*) OUT="${a#*=}" ;;
    --report-only) REPORT_ONLY=yes ;;
    -h|--help) sed -n '2,35'p "$0"; exit 0 ;;
    *) echo "soak: unknown option $a (see --help)" >&2; exit 2 ;;
  esac
done
export STINT_CLUSTER_DIR="${STINT_CLUSTER_DIR:-$HOME/.cache/stint/soak-cluster}"
. bench/long-run.sh soak   # OUT made, log, mvn_build

# --- build what is missing (package only: never install over ~/.m2, which others' runs use) -----------------------
if [ ! -f bench/target/stint-bench.jar ] || [ -n "$(find bench/src bench/pom.xml -newer bench/target/stint-bench.jar -print -quit)" ]; then
  log "building the report tool"
  mvn_build -f bench/pom.xml package -DskipTests
fi
report() { java -XX:+UseSerialGC -Xmx512m -jar bench/target/stint-bench.jar soak-report --out="$OUT"; }
if [ -n "$REPORT_ONLY" ]; then
  report
  exit 0
fi
if [ ! -f operator/target/stint-operator.jar ]; then
  log "building the operator jar"
  mvn_build package -DskipTests -pl operator -am
fi
e2e/testbin.sh cluster >/dev/null   # the cluster's binaries only

# an --out that holds a soak already is continued: its seed, start and runs go on (a second phase, e.g. without the
# faults that replace the operator, so that the last hour has processes that live long enough for a slope)
prev() { [ -f "$OUT/soak.env" ] || return 0; sed -n "s/^$1=//p" "$OUT/soak.env" | tail -1; }
CONTINUED="$(prev started)"
[ -z "$CONTINUED" ] || SEED="${SEED:-$(prev seed)}"
SEED="${SEED:-$(( ((RANDOM << 32) | (RANDOM << 16) | RANDOM) & 0xFFFFFFFFFFFF ))}"
# run n's seed: a mix of the soak's seed and n (splitmix64's finaliser), as ChaosIT's seeds, 48 bits
run_seed() {
  local z=$(( SEED + $1 * 0x9E3779B97F4A7C15 ))
  z=$(( (z ^ ((z >> 30) & 0x3FFFFFFFF)) * 0xBF58476D1CE4E5B9 ))
  z=$(( (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * 0x94D049BB133111EB ))
  echo $(( (z ^ ((z >> 31) & 0x1FFFFFFFF)) & 0xFFFFFFFFFFFF ))
}
GIT="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- operator core || echo '+changes')"
if [ -n "$CONTINUED" ]; then
  {
    echo "command=$(prev command), then bench/soak.sh $ARGS"
    echo "seed=$SEED"; echo "minutes=$(( $(prev minutes) + MINUTES ))"
    echo "rounds_per_run=$(prev rounds_per_run), then $ROUNDS"; echo "faults=$(prev faults), then $FAULTS"
    echo "interval=$INTERVAL"; echo "cluster_dir=$STINT_CLUSTER_DIR"; echo "git=$(prev git), then $GIT"
    echo "started=$CONTINUED"; echo "cpus=$(nproc)"
  } > "$OUT/soak.env.next"
  mv "$OUT/soak.env.next" "$OUT/soak.env"
else
  {
    echo "command=bench/soak.sh $ARGS"
    echo "seed=$SEED"; echo "minutes=$MINUTES"; echo "rounds_per_run=$ROUNDS"; echo "faults=$FAULTS"
    echo "interval=$INTERVAL"; echo "cluster_dir=$STINT_CLUSTER_DIR"; echo "git=$GIT"
    echo "started=$(date +%s)"; echo "cpus=$(nproc)"
  } > "$OUT/soak.env"
fi
log "seed $SEED, $MINUTES minutes, $ROUNDS rounds per run, faults $FAULTS; cluster $STINT_CLUSTER_DIR; report $OUT"

# --- the sampler ----------------------------------------------------------------------------------------------------
BTIME=$(awk '/^btime/ {print $2}' /proc/stat)
CLK=$(getconf CLK_TCK)
SAMPLES="$OUT/samples.csv"
[ -f "$SAMPLES" ] || echo "time,pid,start,rss_kb,threads,fds,api_conns,jvm_threads,heap_live_bytes,heap_used_bytes,jobs_cached,watch_opens,watch_restarts,leader" > "$SAMPLES"

# prints one CSV line for an operator process of this cluster, nothing for any other process
sample_pid() {
  local pid=$1 now=$2 d=/proc/$1 cmd env start rss threads fds conns port hexport metrics=""
  # a process may end between pgrep and here: every read of /proc is quiet and gives up on it
  cmd=$( { tr '\0' ' ' < "$d/cmdline"; } 2>/dev/null) || return 0
  [[ "$cmd" == *stint-operator.jar* ]] || return 0
  env=$( { tr '\0' '\n' < "$d/environ"; } 2>/dev/null) || return 0
  grep -q "^KUBECONFIG=$STINT_CLUSTER_DIR/" <<< "$env" || return 0
  start=$( { sed 's/.*) //' "$d/stat" | awk '{print $20}'; } 2>/dev/null) || return 0
  [ -n "$start" ] || return 0
  start=$(( BTIME + start / CLK ))
  rss=$(awk '/^VmRSS:/ {print $2}' "$d/status" 2>/dev/null) || return 0
  threads=$(awk '/^Threads:/ {print $2}' "$d/status" 2>/dev/null) || return 0
  [ -n "$rss" ] && [ -n "$threads" ] || return 0
  fds=$(ls "$d/fd" 2>/dev/null | wc -l)
  # established TCP connections of this process to the API server: its watches (a WebSocket each) and its requests
  hexport=$(printf '%04X' "$APISERVER_PORT")
  conns=$(find "$d/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null | tr -dc '0-9\n' \
    | awk -v p="$hexport" 'FNR == NR { s[$1] = 1; next } FNR > 1 && $4 == "01" && substr($3, length($3) - 3) == p && ($10 in s) { n++ } END { print n + 0 }' \
      - "$d/net/tcp" "$d/net/tcp6" 2>/dev/null || echo "")
  port=$(grep -o -- '--metrics-port=[0-9]*' <<< "$cmd" | head -1 | cut -d= -f2)
  if [ -n "$port" ] && [ "$port" != 0 ]; then
    # the value is the last field: a label value may hold a space (id="Eden Space")
    metrics=$(curl -s --max-time 3 "http://127.0.0.1:$port/metrics" 2>/dev/null | awk '
      /^jvm_threads_live_threads / { t = $NF }
      /^stint_heap_live_bytes / { hl = sprintf("%.0f", $NF) }
      /^jvm_memory_used_bytes\{.*area="heap"/ { hu += $NF; h = 1 }
      /^stint_jobs\{/ { if ($NF != "NaN") { j += $NF; jn = 1 } }
      /^stint_kube_api_requests_total\{.*verb="watch"/ { w += $NF; wn = 1 }
      /^stint_watch_restarts_total/ { r += $NF }
      /^stint_leader / { l = $NF }
      END { if (t != "") printf "%s,%s,%s,%s,%s,%.0f,%s", t, hl, (h ? sprintf("%.0f", hu) : ""), (jn ? sprintf("%.0f", j) : ""),
        (wn ? sprintf("%.0f", w) : ""), r, l }' || true)
  fi
  [ -n "$metrics" ] || metrics=",,,,,,"
  echo "$now,$pid,$start,$rss,$threads,$fds,$conns,$metrics"
}

sampler() {
  while true; do
    local now pid
    # shellcheck disable=SC1091
    . "$STINT_CLUSTER_DIR/ports.env" 2>/dev/null || true   # again each time: a restarted cluster has new ports
    now=$(date +%s)
    for pid in $(pgrep -f stint-operator.jar || true); do
      sample_pid "$pid" "$now" >> "$SAMPLES" || true
    done
    sleep "$INTERVAL"
  done
}

SAMPLER=""
cleanup() {
  [ -z "$SAMPLER" ] || kill "$SAMPLER" 2>/dev/null || true
  e2e/cluster.sh down >/dev/null 2>&1 || true
}
trap cleanup EXIT

log "starting a fresh cluster"
e2e/cluster.sh down >/dev/null 2>&1 || true
e2e/cluster.sh up >/dev/null
sampler &
SAMPLER=$!

# --- the chaos runs -------------------------------------------------------------------------------------------------
RUNS="$OUT/runs.tsv"
[ -f "$RUNS" ] || printf 'run\tseed\tstart\tend\tmvn_rc\n' > "$RUNS"
END=$(( $(date +%s) + MINUTES * 60 ))
n=$(( $(wc -l < "$RUNS") - 1 ))
while [ "$(date +%s)" -lt "$END" ]; do
  n=$((n + 1))
  seed=$(run_seed "$n")
  dir="$OUT/runs/$n"
  mkdir -p "$dir"
  rm -f e2e/target/chaos-tally.txt e2e/target/operator-*.log e2e/target/failsafe-reports/*ChaosIT*
  log "run $n: seed $seed, $ROUNDS rounds"
  t0=$(date +%s)
  rc=0
  # the ITs' phase without the e2e module's cluster up/down around it: this cluster lives through the soak
  mvn -B -o -pl e2e test-compile failsafe:integration-test -Dit.test=ChaosIT -Dtest=none \
    -Dsurefire.failIfNoSpecifiedTests=false -Dstint.chaos.seed="$seed" -Dstint.chaos.rounds="$ROUNDS" \
    -Dstint.chaos.faults="$FAULTS" -Dstint.operator.metrics=true > "$dir/mvn.log" 2>&1 || rc=$?
  t1=$(date +%s)
  cp e2e/target/chaos-tally.txt "$dir/" 2>/dev/null || echo "no tally (the run did not get to its end; see mvn.log)" > "$dir/chaos-tally.txt"
  cp e2e/target/failsafe-reports/dev.stint.e2e.ChaosIT-output.txt "$dir/" 2>/dev/null || true
  cp e2e/target/operator-*.log "$dir/" 2>/dev/null || true
  printf '%s\t%s\t%s\t%s\t%s\n' "$n" "$seed" "$t0" "$t1" "$rc" >> "$RUNS"
  # a test that threw (a harness wait that timed out) lists no finding in its tally: Maven's summary tells
  log "run $n done in $((t1 - t0)) s: $(grep -E '^findings' "$dir/chaos-tally.txt" || echo 'no tally'); $(grep -o 'Tests run: [0-9]*, Failures: [0-9]*, Errors: [0-9]*' "$dir/mvn.log" | tail -1)"
  # a cluster that a run left broken would fail every later run: start it again
  if ! e2e/cluster.sh status >/dev/null 2>&1; then
    log "the cluster is not healthy after run $n: starting it again"
    echo "$n" >> "$OUT/cluster-restarts.txt"
    e2e/cluster.sh down >/dev/null 2>&1 || true
    e2e/cluster.sh up >/dev/null
  fi
done
echo "ended=$(date +%s)" >> "$OUT/soak.env"
kill "$SAMPLER" 2>/dev/null || true
SAMPLER=""
report
log "report: $OUT/soak.md"
