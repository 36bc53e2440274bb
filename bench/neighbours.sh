#!/usr/bin/env bash
# Neighbours benchmark (docs/benchmarks.md): how long small PyTorchJobs take to run beside a job at the replica
# maximum, and beside poison jobs whose pods the API server always refuses.
#
#   bench/neighbours.sh [options]
#
# For each round and each condition, on a fresh local control plane (e2e/cluster.sh, state in $STINT_CLUSTER_DIR,
# default ~/.cache/stint/neighbours-cluster; the resourcequota controller added to the controller manager): install
# crds/, start Stint as a process (bin/stint run, the shipped JVM flags; its log kept), wait for a warm-up job to run,
# then create K small PyTorchJobs (1 Master + 1 Worker) in namespace `small` with one `kubectl create` and time each
# to its Running=True (kubectl get --watch, timestamped as each event arrives) from just before that command, and
# from the moment its own POST went out (kubectl -v=6: the command sends them one after the other).
# Conditions:
#   baseline  nothing else
#   big       one PyTorchJob of 1 Master + 4999 Workers (namespace `big`) created just before the small ones; also
#             its Created condition, all pods created, all pods Running, Running=True
#   poison    P PyTorchJobs in namespace `poison`, whose ResourceQuota is pods: "0", created just before the small
#             ones; also their ReplicaFailure condition, PyTorchJobQuotaExceeded events and the operator's log lines
#             about them, after a soak of S seconds
#   gangpoison one PyTorchJob of 1 Master + G-1 Workers in namespace `poison` with failurePolicy (maxRestarts 10000)
#             whose every pod exits 1 as soon as it runs (kwok), created L seconds before the small ones (so that they
#             meet its restarts, not its first creation); at the end of a soak of S seconds from its creation, its gang
#             restarts and the operator's API requests per minute over the soak's last half, and its Restarting
#             message: the gang restarts' backoff
# For every run: the operator's peak RSS (ps every second, and VmHWM), CPU seconds, whether it stayed alive.
# Writes bench/reports/<yyyy-mm-dd-HHMM>-neighbours/report.md (and runs/<condition>-<round>/ with the raw series and
# the operator's log) and prints the report.
#
# Options:
#   --k=K                  small jobs per run (default 20)
#   --rounds=R             repetitions of each condition, interleaved (default 2)
#   --conditions=LIST      subset of baseline,big,poison,gangpoison (default the first three)
#   --gang=G               pods of the gangpoison job (default 100)
#   --gang-lead=L          seconds between the gangpoison job's creation and the small jobs' (default 60)
#   --big-workers=W        workers of the big job (default 4999: 5000 replicas in all, the CRD's maximum)
#   --poison=P             poison jobs (default 20)
#   --soak=S               seconds the poison jobs are watched after their creation (default 90)
#   --nodes=N              kwok nodes (default 50: 110 pods each, 5500 pods)
#   --timeout=S            wait for the small jobs at most S seconds (default 600)
#   --big-timeout=S        wait for the big job's Running=True at most S seconds (default 1200)
#   --out=DIR              report folder (default bench/reports/<yyyy-mm-dd-HHMM>-neighbours)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

K=20; ROUNDS=2; CONDITIONS="baseline,big,poison"; BIG_WORKERS=4999; POISON=20; SOAK=90; NODES=50
TIMEOUT=600; BIG_TIMEOUT=1200; OUT=""; GANG=100; GANG_LEAD=60
for a in "$@"; do
  case "$a" in
    --k=*) K="${a#*=}" ;;
    --rounds=*) ROUNDS="${a#*=}" ;;
    --conditions=*) CONDITIONS="${a#*=}" ;;
    --big-workers=*) BIG_WORKERS="${a#*=}" ;;
    --poison=*) POISON="${a#*=}" ;;
    --soak=*) SOAK="${a#*=}" ;;
    --gang=*) GANG="${a#*=}" ;;
    --gang-lead=*) GANG_LEAD="${a#*=}" ;;
    --nodes=*) NODES="${a#*=}" ;;
    --timeout=*) TIMEOUT="${a#*=}" ;;
    --big-timeout=*) BIG_TIMEOUT="${a#*=}" ;;
    --out=*) OUT="${a#*=}" ;;
    -h|--help) sed -n '2,41p' "$0"; exit 0 ;;
    *) echo "neighbours: unknown option $a (see --help)" >&2; exit 2 ;;
  esac
done
export STINT_CLUSTER_DIR="${STINT_CLUSTER_DIR:-$HOME/.cache/stint/neighbours-cluster}"
# e2e/cluster.sh's controllers plus resourcequota, which fills the quota's status: without it the API server does
# not enforce the quota at all
export STINT_KCM_CONTROLLERS="${STINT_KCM_CONTROLLERS:-garbage-collector-controller,namespace-controller,serviceaccount-controller,serviceaccount-token-controller,root-ca-certificate-publisher-controller,pod-garbage-collector-controller,job-controller,ttl-after-finished-controller,endpoints-controller,endpointslice-controller,resourcequota-controller}"
export STINT_UP_TIMEOUT="${STINT_UP_TIMEOUT:-300}"
. bench/long-run.sh neighbours   # OUT made, log, mvn_build

# --- build what is missing -----------------------------------------------------------------------------------------
if [ ! -f operator/target/stint-operator.jar ]; then
  log "building the operator jar"
  mvn_build install -DskipTests -DskipITs -pl operator -am
fi
e2e/testbin.sh cluster >/dev/null   # waits for another build holding its lock; a no-op when the binaries are there
command -v jq >/dev/null || { echo "neighbours: jq is needed" >&2; exit 1; }
command -v perl >/dev/null || { echo "neighbours: perl is needed (timestamps)" >&2; exit 1; }

# --- processes of the current run, stopped on exit ---------------------------------------------------------------
OP_PID=""; BG_PIDS=()
stop_group() { # pid of a setsid'ed process (its process group's id): TERM the group, KILL it after 20 s
  local pid="$1"
  kill -TERM -- "-$pid" 2>/dev/null || return 0
  for _ in $(seq 80); do pgrep -g "$pid" >/dev/null || return 0; sleep 0.25; done
  kill -KILL -- "-$pid" 2>/dev/null || true
}
stop_run() {
  local p
  for p in "${BG_PIDS[@]}"; do stop_group "$p"; done
  BG_PIDS=()
  if [ -n "$OP_PID" ]; then stop_group "$OP_PID"; wait "$OP_PID" 2>/dev/null || true; OP_PID=""; fi
}
cleanup() { stop_run; e2e/cluster.sh down >/dev/null 2>&1 || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# background, in its own process group: a watch, started again if it ends (a new list then repeats the current
# state, later), each line prefixed with the epoch time (ms) at which it arrived
export STAMP='BEGIN { $| = 1 } printf "%.3f %s", time, $_'
watch_into() { # file kubectl-args...
  local file="$1"; shift
  setsid bash -c 'while :; do kubectl "$@" 2>/dev/null; sleep 0.5; done | perl -MTime::HiRes=time -ne "$STAMP"' _ "$@" \
    > "$file" 2>/dev/null < /dev/null &
  BG_PIDS+=($!)
}
now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# below the ephemeral range (32768 up on Linux), which outgoing connections take their local ports from
free_port() { local p; while :; do p=$((20000 + RANDOM % 12768)); ss -Htan "sport = :$p" | grep -q . || { echo "$p"; return; }; done; }
# (custom columns, not jsonpath: kubectl's jsonpath fails on a job that has no status yet, and ends the watch)
JOB_COLUMNS='custom-columns=N:.metadata.name,T:.status.conditions[*].type,S:.status.conditions[*].status,R:.status.conditions[*].reason'
POD_COLUMNS='custom-columns=N:.metadata.name,P:.status.phase'

job_yaml() { # namespace name workers
  cat <<EOF
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: $2, namespace: $1}
spec:
  pytorchReplicaSpecs:
EOF
  local type replicas
  for type in Master Worker; do
    replicas=1; [ "$type" = Worker ] && replicas="$3"
    cat <<EOF
    $type:
      replicas: $replicas
      restartPolicy: OnFailure
      template:
        spec:
          nodeSelector: {type: kwok}
          tolerations: [{key: kwok.x-k8s.io/node, operator: Exists, effect: NoSchedule}]
          containers:
          - {name: pytorch, image: busybox, command: [sleep, "3600"]}
EOF
  done
  echo "---"
}

gang_poison_yaml() { # a gang whose pods all exit 1 as soon as they run: it restarts for ever, backing off
  job_yaml poison gang-poison "$((GANG - 1))" \
    | sed -e 's/^spec:$/spec:\n  runPolicy: {failurePolicy: {maxRestarts: 10000}}/' \
          -e 's/^      template:$/      template:\n        metadata: {annotations: {stint.dev\/kwok-exit-code: "1"}}/'
}

# the operator's requests so far, all verbs and codes (stint_kube_api_requests_total)
op_requests() { curl -s --max-time 5 "http://127.0.0.1:$1/metrics" | awk '/^stint_kube_api_requests_total/ { s += $2 } END { printf "%.0f", s }'; }

# first time each job of a watch file ("time name types statuses reasons", comma lists) shows condition $2=True
# (with reason $4 if given): "name seconds-since-$3"
first_true() { # file type t0 [reason]
  awk -v t0="$3" -v type="$2" -v reason="${4:-}" '!($2 in seen) { n = split($3, t, ","); split($4, s, ","); split($5, r, ",")
      for (i = 1; i <= n; i++) if (t[i] == type && s[i] == "True" && (reason == "" || r[i] == reason)) {
        seen[$2] = 1; printf "%s %.3f\n", $2, $1 - t0; break } }' "$1" 2>/dev/null
}
count_true() { first_true "$@" | wc -l; }
stats() { # file of "name seconds" -> "p50 p99 max n" (nearest rank)
  sort -k2,2g "$1" | awk '{ v[NR] = $2 } END { if (NR == 0) { print "- - - 0"; exit }
    p50 = int(0.5 * NR); if (p50 < 0.5 * NR) p50++; p99 = int(0.99 * NR); if (p99 < 0.99 * NR) p99++;
    printf "%.2f %.2f %.2f %d\n", v[p50], v[p99], v[NR], NR }'
}
wait_for() { # seconds description command...: 0 when the command succeeded in time
  local t="$1" what="$2"; shift 2
  local end=$((SECONDS + t))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || { log "timed out after ${t}s waiting for $what"; return 1; }
    sleep 0.5
  done
}
quota_synced() { [ "$(kubectl get quota no-pods -n poison -o jsonpath='{.status.used.pods}')" = 0 ]; }
op_alive() { [ -n "$OP_PID" ] && kill -0 "$OP_PID" 2>/dev/null; }
warm_running() { kubectl get pytorchjob warm -n warmup -o jsonpath='{.status.conditions[?(@.type=="Running")].status}' | grep -qx True; }
# done waiting: all K small jobs Running, or the operator is gone
small_done() { [ "$(first_true "$1" Running 0 | wc -l)" -ge "$K" ] || ! op_alive; }
big_done() { [ -n "$(first_true "$1" Running 0)" ] || ! op_alive; }

run_one() { # condition round
  local cond="$1" round="$2" dir="$OUT/runs/$1-$2" fig
  mkdir -p "$dir"; fig="$dir/figures.txt"; : > "$fig"
  put() { echo "$1=$2" >> "$fig"; }
  val_of() { grep -m1 "^$1=" "$fig" | cut -d= -f2-; }
  log "=== $cond, round $round: fresh cluster with $NODES kwok nodes"
  e2e/cluster.sh down >/dev/null 2>&1 || true
  # (set -e does not hold in a function called under ||: each step that must work says so)
  STINT_KWOK_NODES="$NODES" e2e/cluster.sh up >/dev/null || { put error "the cluster did not start"; return 1; }
  eval "$(e2e/cluster.sh env)"; export KUBECONFIG
  wait_for 120 "crds/ applied" kubectl apply --server-side -f crds/ || { put error "crds/ not applied"; return 1; }
  wait_for 120 "the PyTorchJob CRD established" kubectl wait --for=condition=Established crd/pytorchjobs.kubeflow.org --timeout=10s \
    || { put error "CRD not established"; return 1; }
  local ns
  for ns in warmup small big poison; do kubectl create namespace "$ns" >/dev/null; done
  for ns in warmup small big poison; do   # pods of a namespace without its default ServiceAccount are refused
    wait_for 120 "serviceaccount $ns/default" kubectl get serviceaccount default -n "$ns" || { put error "no default ServiceAccount in $ns"; return 1; }
  done
  if [ "$cond" = poison ]; then
    kubectl create quota no-pods -n poison --hard=pods=0 >/dev/null
    # until the quota controller has written its status the API server refuses pods with "status unknown for quota"
    wait_for 120 "the quota's status" quota_synced || { put error "the quota's status was never written"; return 1; }
  fi

  # the operator, as users run it; one process, so no Lease to renew among the requests measured
  local port; port="$(free_port)"
  setsid "$ROOT/bin/stint" run --health-port=0 --metrics-port="$port" --leader-election=false \
    > "$dir/operator.log" 2>&1 < /dev/null &
  OP_PID=$!
  setsid bash -c 'while kill -0 '"$OP_PID"' 2>/dev/null; do r=$(ps -o rss= -p '"$OP_PID"') && echo "$EPOCHREALTIME $r"; sleep 1; done' \
    > "$dir/rss.txt" 2>/dev/null < /dev/null &
  BG_PIDS+=($!)
  { echo "start: $(date -u -Is)"; uptime; echo "busiest processes (%CPU since their start):";
    ps -eo pcpu,etimes,comm --sort=-pcpu | head -8; } > "$dir/machine.txt"
  put load_at_start "$(cut -d' ' -f1-3 /proc/loadavg)"

  # warm-up: the operator has synced its caches and served one job
  job_yaml warmup warm 1 | kubectl create -f - >/dev/null
  if ! wait_for 240 "the warm-up job" warm_running; then
    put error "warm-up job not Running after 240 s"
  fi

  # watches, before anything is created
  watch_into "$dir/small.watch" get pytorchjobs -n small -w --no-headers -o "$JOB_COLUMNS"
  local i big_t0="" poison_t0=""
  case "$cond" in
    big)
      watch_into "$dir/big.watch" get pytorchjobs -n big -w --no-headers -o "$JOB_COLUMNS"
      watch_into "$dir/bigpods.watch" get pods -n big -w --no-headers -o "$POD_COLUMNS" ;;
    poison|gangpoison)
      watch_into "$dir/poison.watch" get pytorchjobs -n poison -w --no-headers -o "$JOB_COLUMNS" ;;
  esac
  sleep 3
  job_yaml big big "$BIG_WORKERS" > "$dir/big.yaml"
  for ((i = 1; i <= POISON; i++)); do job_yaml poison "$(printf 'poison-%02d' "$i")" 1; done > "$dir/poison.yaml"
  for ((i = 1; i <= K; i++)); do job_yaml small "$(printf 'small-%02d' "$i")" 1; done > "$dir/small.yaml"

  # the neighbour, then at once the K small jobs (one request each, in one kubectl)
  case "$cond" in
    big) big_t0="$(now)"; kubectl create -f "$dir/big.yaml" >/dev/null; put big_create_s "$(since "$big_t0" "$(now)")" ;;
    poison) poison_t0="$(now)"; kubectl create -f "$dir/poison.yaml" >/dev/null; put poison_create_s "$(since "$poison_t0" "$(now)")" ;;
    gangpoison)
      poison_t0="$(now)"; gang_poison_yaml | kubectl create -f - >/dev/null
      sleep "$GANG_LEAD"
      put gang_restarts_before_small "$(kubectl get pytorchjob gang-poison -n poison -o jsonpath='{.status.restarts}')" ;;
  esac
  local t0; t0="$(now)"
  # -v=6 logs each request's response time and duration: each job's own POST, sent in the file's order
  kubectl create -f "$dir/small.yaml" -v=6 > /dev/null 2> "$dir/small-create.log"
  put small_create_s "$(since "$t0" "$(now)")"
  log "$cond $round: created; waiting for $K small jobs to run"

  wait_for "$TIMEOUT" "$K small jobs Running" small_done "$dir/small.watch" || true
  first_true "$dir/small.watch" Running "$t0" > "$dir/small-latencies.txt"
  read -r p50 p99 max n < <(stats "$dir/small-latencies.txt")
  put small_p50 "$p50"; put small_p99 "$p99"; put small_max "$max"; put small_running "$n/$K"
  # the same from each job's own POST ("I1201 17:40:06.832045 ... POST .../pytorchjobs?... 201 Created in 15
  # milliseconds": klog's local time of the response, minus its duration)
  perl -MPOSIX=mktime -ne 'BEGIN { @d = localtime(time) }
      if (m{^[IWE]\d{4} (\d\d):(\d\d):(\d\d)(\.\d+)\s.*\bPOST \S*/pytorchjobs\S* 201 \S+ in (\d+) milliseconds}) {
        $e = mktime($3, $2, $1, $d[3], $d[4], $d[5]) + $4; printf "small-%02d %.3f\n", ++$i, $e - $5 / 1000 }' \
      "$dir/small-create.log" > "$dir/small-sent.txt"
  awk -v t0="$t0" 'NR == FNR { sent[$1] = $2; next } $1 in sent { printf "%s %.3f\n", $1, t0 + $2 - sent[$1] }' \
      "$dir/small-sent.txt" "$dir/small-latencies.txt" > "$dir/small-own-latencies.txt"
  read -r p50 p99 max n < <(stats "$dir/small-own-latencies.txt")
  put small_own_p50 "$p50"; put small_own_p99 "$p99"; put small_own_max "$max"
  log "$cond $round: small jobs Running $(val_of small_running); from their own POST p50 $p50 s, p99 $p99 s, max $max s"

  local total=$((BIG_WORKERS + 1))
  if [ "$cond" = big ]; then
    wait_for "$BIG_TIMEOUT" "the big job's Running=True" big_done "$dir/big.watch" || true
    sleep 1
    put big_created_cond "$(first_true "$dir/big.watch" Created "$big_t0" | awk '{ printf "%.2f", $2; exit }')"
    put big_running_cond "$(first_true "$dir/big.watch" Running "$big_t0" | awk '{ printf "%.2f", $2; exit }')"
    # pods: the first event of each name is its creation; Running when kwok made it so
    put big_pods_seen "$(awk '{ s[$2] = 1 } END { print length(s) }' "$dir/bigpods.watch")"
    put big_all_pods_created "$(awk -v t0="$big_t0" -v n="$total" '!($2 in s) { s[$2] = 1; if (++c == n) { printf "%.2f", $1 - t0; exit } }' "$dir/bigpods.watch")"
    put big_all_pods_running "$(awk -v t0="$big_t0" -v n="$total" '$3 == "Running" && !($2 in s) { s[$2] = 1; if (++c == n) { printf "%.2f", $1 - t0; exit } }' "$dir/bigpods.watch")"
    put big_final_conditions "$(kubectl get pytorchjob big -n big -o jsonpath='{range .status.conditions[*]}{.type}={.status};{end}' 2>/dev/null)"
    put big_services "$(kubectl get services -n big --no-headers 2>/dev/null | wc -l)"
  fi
  if [ "$cond" = poison ]; then
    local left; left="$(awk -v a="$poison_t0" -v b="$(now)" -v s="$SOAK" 'BEGIN { d = s - (b - a); print (d > 0 ? int(d + 1) : 0) }')"
    log "poison $round: soaking for $left more seconds"
    sleep "$left"
    first_true "$dir/poison.watch" ReplicaFailure "$poison_t0" PyTorchJobQuotaExceeded > "$dir/poison-replicafailure.txt"
    read -r p50 p99 max n < <(stats "$dir/poison-replicafailure.txt")
    put poison_rf_p50 "$p50"; put poison_rf_max "$max"
    kubectl get pytorchjobs -n poison -o json > "$dir/poison-jobs.json"
    put poison_rf_now "$(jq '[.items[] | select(any(.status.conditions[]?; .type == "ReplicaFailure" and .status == "True" and .reason == "PyTorchJobQuotaExceeded"))] | length' "$dir/poison-jobs.json")/$POISON"
    put poison_failed "$(jq '[.items[] | select(any(.status.conditions[]?; .type == "Failed" and .status == "True"))] | length' "$dir/poison-jobs.json")"
    put poison_rf_message "$(jq -r '[.items[].status.conditions[]? | select(.type == "ReplicaFailure") | .message][0] // "-"' "$dir/poison-jobs.json")"
    kubectl get events -n poison -o json > "$dir/poison-events.json"
    # per poison job: Event objects of that reason, and the sum of their counts (an event repeated is one object with
    # count > 1, or a series)
    jq -r --argjson n "$POISON" '[.items[] | select(.reason == "PyTorchJobQuotaExceeded")] as $e
        | [range(1; $n + 1) | "poison-\(if . < 10 then "0" else "" end)\(.)"] as $jobs
        | [$jobs[] as $j | [$e[] | select(.involvedObject.name == $j)] | {objects: length,
            count: (map((.series.count // .count // 1)) | add // 0)}]
        | "\(map(.objects) | min)-\(map(.objects) | max) \(map(.count) | min)-\(map(.count) | max) \(map(.objects) | add)"' \
        "$dir/poison-events.json" > "$dir/poison-events.txt"
    read -r objs counts total_objs < "$dir/poison-events.txt"
    put poison_events_per_job "$objs"; put poison_event_count_per_job "$counts"; put poison_events_total "$total_objs"
    put poison_event_types "$(jq -r '[.items[] | select(.involvedObject.kind == "PyTorchJob") | "\(.type)/\(.reason)"] | group_by(.) | map("\(.[0]) ×\(length)") | join(", ")' "$dir/poison-events.json")"
    put poison_pods "$(kubectl get pods -n poison --no-headers 2>/dev/null | wc -l)"
    put poison_log_lines "$(grep -c 'poison' "$dir/operator.log" || true)"
    grep 'poison' "$dir/operator.log" > "$dir/operator-poison-lines.log" || true
    put poison_refused_retries "$(curl -s --max-time 5 "http://127.0.0.1:$port/metrics" | awk '/^stint_refused_retries_total/ && /PyTorchJob/ { print $2 + 0 }' | head -1)"
  fi

  if [ "$cond" = gangpoison ]; then
    # the soak's second half: the small jobs are running, the requests are the poison gang's
    local half; half="$(awk -v a="$poison_t0" -v b="$(now)" -v s="$SOAK" 'BEGIN { d = s / 2 - (b - a); print (d > 0 ? int(d + 1) : 0) }')"
    sleep "$half"
    local r0 t_0; r0="$(op_requests "$port")"; t_0="$(now)"
    sleep "$((SOAK / 2))"
    local r1 t_1; r1="$(op_requests "$port")"; t_1="$(now)"
    put gang_requests_per_min "$(awk -v a="$r0" -v b="$r1" -v t="$(since "$t_0" "$t_1")" 'BEGIN { printf "%.0f", (b - a) * 60 / t }')"
    kubectl get pytorchjob gang-poison -n poison -o json > "$dir/gang-poison.json"
    put gang_restarts "$(jq '.status.restarts // 0' "$dir/gang-poison.json")"
    put gang_quick_restarts "$(jq '.status.quickRestarts // 0' "$dir/gang-poison.json")"
    put gang_restarting_message "$(jq -r '[.status.conditions[]? | select(.type == "Restarting") | .message][0] // "-"' "$dir/gang-poison.json")"
    put gang_soak_s "$SOAK"
  fi

  # the operator at the end
  if op_alive; then
    put operator_alive yes
    put operator_vmhwm_mib "$(awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$OP_PID/status")"
    put operator_cpu_s "$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15) / hz }' "/proc/$OP_PID/stat")"
  else
    wait "$OP_PID" 2>/dev/null && rc=0 || rc=$?
    put operator_alive "NO (exit $rc)"
    OP_PID=""
  fi
  put operator_peak_rss_mib "$(awk '$2 > m { m = $2 } END { printf "%.0f", m / 1024 }' "$dir/rss.txt")"
  put operator_warn_error_lines "$(grep -cE '(WARN|ERROR)' "$dir/operator.log" || true)"
  put operator_oom "$(grep -c 'OutOfMemoryError' "$dir/operator.log" || true)"
  put load_at_end "$(cut -d' ' -f1-3 /proc/loadavg)"
  stop_run
  cp "$STINT_CLUSTER_DIR/logs/kube-apiserver.log" "$dir/kube-apiserver.log" 2>/dev/null || true
  e2e/cluster.sh down >/dev/null 2>&1 || true
  log "$cond $round: done: $(tr '\n' ' ' < "$fig" | cut -c1-400)"
}

# --- the runs, conditions interleaved so that a change of the machine's load falls on all of them ----------------
IFS=',' read -r -a CONDLIST <<< "$CONDITIONS"
echo "bench/neighbours.sh $*" > "$OUT/command.txt"
RUNS=()
for ((r = 1; r <= ROUNDS; r++)); do
  for c in "${CONDLIST[@]}"; do
    run_one "$c" "$r" || log "run $c $r failed; going on"
    RUNS+=("$c-$r")
  done
done

# --- report --------------------------------------------------------------------------------------------------------
val() { local v; v="$(grep -m1 "^$2=" "$OUT/runs/$1/figures.txt" 2>/dev/null | cut -d= -f2-)"; echo "${v:--}"; }
{
  echo "# Neighbours: small PyTorchJobs beside a job at the replica maximum and beside poison jobs"
  echo
  echo "$(date -u -Is), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $NODES kwok nodes, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'); command: \`$(cat "$OUT/command.txt")\`"
  echo
  echo "K = $K small jobs (1 Master + 1 Worker) per run, each timed to its \`Running=True\` as a watch saw it, from just before the one \`kubectl create\` of all K (which sends them one after the other), and from the moment its own POST was sent (kubectl -v=6). p99 is nearest-rank: with K = $K it is the slowest job. Big-job and poison times are from just before their own \`kubectl create\`, which came right before the small jobs'."
  echo
  printf '| figure |'; for r in "${RUNS[@]}"; do printf ' %s |' "$r"; done; echo
  printf '| --- |'; for _ in "${RUNS[@]}"; do printf ' --- |'; done; echo
  row() { # label key
    printf '| %s |' "$1"; for r in "${RUNS[@]}"; do printf ' %s |' "$(val "$r" "$2")"; done; echo
  }
  row "small: Running p50, from the kubectl create (s)" small_p50
  row "small: Running p99, from the kubectl create (s)" small_p99
  row "small: Running max, from the kubectl create (s)" small_max
  row "small: Running p50, from the job's own POST (s)" small_own_p50
  row "small: Running p99, from the job's own POST (s)" small_own_p99
  row "small: Running max, from the job's own POST (s)" small_own_max
  row "small: jobs Running" small_running
  row "small: the kubectl create of all K took (s)" small_create_s
  row "big: Created condition after (s)" big_created_cond
  row "big: all pods created after (s)" big_all_pods_created
  row "big: all pods Running after (s)" big_all_pods_running
  row "big: Running=True after (s)" big_running_cond
  row "big: pods seen" big_pods_seen
  row "big: services at the end" big_services
  row "poison: ReplicaFailure=True (PyTorchJobQuotaExceeded) at the end" poison_rf_now
  row "poison: ReplicaFailure first seen p50 (s)" poison_rf_p50
  row "poison: ReplicaFailure first seen max (s)" poison_rf_max
  row "poison: jobs Failed" poison_failed
  row "poison: QuotaExceeded events per job (objects, min-max)" poison_events_per_job
  row "poison: QuotaExceeded event count per job (min-max)" poison_event_count_per_job
  row "poison: refused retries (stint_refused_retries_total)" poison_refused_retries
  row "poison: operator log lines naming a poison job" poison_log_lines
  row "gang poison: gang restarts when the small jobs were created" gang_restarts_before_small
  row "gang poison: gang restarts during the soak" gang_restarts
  row "gang poison: quick restarts in a row at the end" gang_quick_restarts
  row "gang poison: operator API requests per minute, soak's second half" gang_requests_per_min
  row "operator: peak RSS, ps each second (MiB)" operator_peak_rss_mib
  row "operator: VmHWM (MiB)" operator_vmhwm_mib
  row "operator: CPU (s)" operator_cpu_s
  row "operator: alive at the end" operator_alive
  row "operator: WARN/ERROR log lines" operator_warn_error_lines
  row "load average at start" load_at_start
  row "load average at end" load_at_end
  echo
  echo "Pooled over the rounds (small jobs → Running=True, s; p50 / p99 / max):"
  echo
  echo "| condition | n | from the kubectl create | from the job's own POST |"
  echo "| --- | --- | --- | --- |"
  for c in "${CONDLIST[@]}"; do
    cat "$OUT"/runs/"$c"-*/small-latencies.txt 2>/dev/null > "$OUT/pooled-$c.txt" || true
    cat "$OUT"/runs/"$c"-*/small-own-latencies.txt 2>/dev/null > "$OUT/pooled-own-$c.txt" || true
    read -r p50 p99 max n < <(stats "$OUT/pooled-$c.txt")
    read -r o50 o99 omax _ < <(stats "$OUT/pooled-own-$c.txt")
    echo "| $c | $n | $p50 / $p99 / $max | $o50 / $o99 / $omax |"
  done
  for r in "${RUNS[@]}"; do
    if [ "$(val "$r" gang_restarting_message)" != - ]; then
      echo; echo "The poison gang's Restarting message at the end ($r): \`$(val "$r" gang_restarting_message)\`"
    fi
    if [ "$(val "$r" poison_rf_message)" != - ]; then
      echo; echo "ReplicaFailure message ($r): \`$(val "$r" poison_rf_message)\`"
      echo; echo "Events on the poison jobs ($r): $(val "$r" poison_event_types)"
      if [ -s "$OUT/runs/$r/operator-poison-lines.log" ]; then
        echo; echo "Operator log lines naming poison jobs ($r, first 3 of $(wc -l < "$OUT/runs/$r/operator-poison-lines.log")):"; echo; echo '```'
        head -3 "$OUT/runs/$r/operator-poison-lines.log" | cut -c1-400; echo '```'
      fi
    fi
    e="$(val "$r" error)"; [ "$e" = - ] || { echo; echo "$r: $e"; }
  done
} > "$OUT/report.md"
cat "$OUT/report.md"
log "report: $OUT/report.md"
