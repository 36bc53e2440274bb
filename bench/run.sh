#!/usr/bin/env bash
# Benchmark of an operator serving kubeflow.org/v1 PyTorchJob, on the local control plane (docs/benchmarks.md).
#
#   bench/run.sh [--n=100,500] [--operator=stint|kubeflow|kubeflow-tuned|stint,kubeflow] [options]
#
# For each N and each operator: start a fresh cluster (e2e/cluster.sh, 120 kwok nodes, state in
# $STINT_CLUSTER_DIR, default ~/.cache/stint/bench-cluster), install the CRD, measure the plain-client limit, start
# the operator as a separate process, run the scenarios (burst, preempt, suspend, resume, complete, churn), stop the operator,
# stop the cluster. Then write bench/reports/<yyyy-mm-dd-HHMM>/report.md, report.json and PNG plots.
#
# Options:
#   --n=LIST                 jobs per scenario (default 100,500: the standard suite, about 12 minutes on 2 cores)
#   --extended               add N=2000 (about 20 more minutes)
#   --operator=LIST          stint (default); stint-lean = Stint with every job in runPolicy.serviceMode PerJob (one
#                            Service per job, docs/networking.md); kubeflow = training-operator v1.9.3 with its upstream defaults
#                            (1 worker thread, 20 QPS); kubeflow-tuned = the same with --controller-threads equal to
#                            the concurrency and 1000 QPS. Built from its Go module on first use (bench/kubeflow.sh).
#   --concurrency=C          driver threads and the limit's concurrency (default: the reconcile threads, else 50)
#   --reconcile-threads=T    passed to Stint as --reconcile-threads
#   --jvm-opts="..."         JVM flags of the Stint process, instead of the shipped ones of bin/stint (default:
#                            $STINT_BENCH_JVM_OPTS if set; --jvm-opts= runs with the JVM's own defaults)
#   --jar=PATH               the Stint jar to run (default operator/target/stint-operator.jar); with
#   --http-client=NAME       STINT_HTTP_CLIENT of that jar: jdk (default), jdk-streams, jdk-http1, vertx, vertx-openssl, vertx5, okhttp, and
#   --tls=conscrypt          STINT_TLS_PROVIDER: the comparison of HTTP clients (operator/pom.xml's http-* profiles)
#   --churn-seconds=S        churn window (default 120)
#   --scenarios=LIST         subset of limit,limitsvc,burst,preempt,suspend,resume,complete,churn
#   --nodes=K                kwok nodes (default 120)
#   --label=TEXT             free text recorded with each run
#   --settle=S               before each scenario, wait up to S s for the machine to be quiet (the last scenario's
#                            clean-up ended; default 0: at once)
#   --out=DIR                report folder (default bench/reports/<yyyy-mm-dd-HHMM>)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

NS="100,500"; OPERATORS="stint"; CONCURRENCY=""; THREADS=""; CHURN=120; NODES=120; SCENARIOS=""; LABEL=""; OUT=""; SETTLE=0
JVM_OPTS="${STINT_BENCH_JVM_OPTS-}"; JVM_OPTS_SET="${STINT_BENCH_JVM_OPTS+yes}"
JAR=""; HTTP_CLIENT=""; TLS=""
for a in "$@"; do
  case "$a" in
    --n=*) NS="${a#*=}" ;;
    --extended) NS="$NS,2000" ;;
    --operator=*) OPERATORS="${a#*=}" ;;
    --concurrency=*) CONCURRENCY="${a#*=}" ;;
    --reconcile-threads=*) THREADS="${a#*=}" ;;
    --jvm-opts=*) JVM_OPTS="${a#*=}"; JVM_OPTS_SET=yes ;;
    --jar=*) JAR="$(realpath "${a#*=}")" ;;
    --http-client=*) HTTP_CLIENT="${a#*=}" ;;
    --tls=*) TLS="${a#*=}" ;;
    --churn-seconds=*) CHURN="${a#*=}" ;;
    --scenarios=*) SCENARIOS="${a#*=}" ;;
    --nodes=*) NODES="${a#*=}" ;;
    --label=*) LABEL="${a#*=}" ;;
    --settle=*) SETTLE="${a#*=}" ;;
    --out=*) OUT="${a#*=}" ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "bench: unknown option $a (see --help)" >&2; exit 2 ;;
  esac
done
CONCURRENCY="${CONCURRENCY:-${THREADS:-50}}"
export STINT_CLUSTER_DIR="${STINT_CLUSTER_DIR:-$HOME/.cache/stint/bench-cluster}"
OUT="${OUT:-bench/reports/$(date +%Y-%m-%d-%H%M)}"
mkdir -p "$OUT"
log() { echo "bench: $*" >&2; }

# --- build what is missing ---------------------------------------------------------------------------------------
mvn_build() { mvn -B -q -o "$@" || mvn -B -q "$@"; }
if [[ ",$OPERATORS," == *,stint* ]] && [ ! -f operator/target/stint-operator.jar ]; then
  log "building the operator jar"
  # only the operator and what it needs: the e2e module would start and stop the default test cluster
  mvn_build install -DskipTests -DskipITs -pl operator -am
fi
if [ ! -f bench/target/stint-bench.jar ] || [ -n "$(find bench/src bench/pom.xml -newer bench/target/stint-bench.jar -print -quit)" ]; then
  log "building the driver"
  mvn_build -f bench/pom.xml package -DskipTests
fi
if [[ ",$OPERATORS," == *,kubeflow* ]]; then
  bench/kubeflow.sh build
fi
e2e/testbin.sh cluster >/dev/null   # the cluster's binaries only: no Helm or Prometheus

# --- one run per N and operator, each on a fresh cluster ---------------------------------------------------------
cleanup() { e2e/cluster.sh down >/dev/null 2>&1 || true; }
trap cleanup EXIT
echo "bench/run.sh $*" > "$OUT/command.txt"
uptime | tee -a "$OUT/uptime.log" >&2

operator_command() { # operator -> the command line that runs it, one word per line
  case "$1" in
    stint|stint-lean)
      # the launcher users run, with its JVM flags unless --jvm-opts replaces them (env and the launcher exec: the
      # PID the driver measures is the JVM's)
      printf '%s\n' env ${JVM_OPTS_SET:+"STINT_JAVA_OPTS=$JVM_OPTS"} ${JAR:+"STINT_JAR=$JAR"} \
        ${HTTP_CLIENT:+"STINT_HTTP_CLIENT=$HTTP_CLIENT"} ${TLS:+"STINT_TLS_PROVIDER=$TLS"} "$ROOT/bin/stint" run --health-port=0 \
        --metrics-port="$METRICS_PORT" --leader-election=false ${THREADS:+--reconcile-threads=$THREADS} ;;
    kubeflow) bench/kubeflow.sh command --metrics-bind-address="127.0.0.1:$METRICS_PORT" ;;
    kubeflow-tuned) bench/kubeflow.sh command --controller-threads="$CONCURRENCY" --kube-api-qps=1000 --kube-api-burst=2000 \
      --metrics-bind-address="127.0.0.1:$METRICS_PORT" ;;
    *) log "unknown operator $1"; exit 2 ;;
  esac
}

IFS=',' read -r -a NLIST <<< "$NS"
IFS=',' read -r -a OPLIST <<< "$OPERATORS"
for n in "${NLIST[@]}"; do
  for op in "${OPLIST[@]}"; do
    log "=== $op, N=$n: starting a cluster with $NODES kwok nodes"
    e2e/cluster.sh down >/dev/null 2>&1 || true   # always a fresh cluster, with this run's node count
    STINT_KWOK_NODES="$NODES" e2e/cluster.sh up >/dev/null
    export KUBECONFIG="$STINT_CLUSTER_DIR/kubeconfig"
    if [[ "$op" == kubeflow* ]]; then
      bench/kubeflow.sh prepare >/dev/null
    else
      kubectl apply --server-side -f crds/ >/dev/null
    fi
    # each operator serves its /metrics there: the driver reads its own time per request from it
    METRICS_PORT=$((20000 + RANDOM % 12768))
    mapfile -t CMD < <(operator_command "$op")
    echo "$(date -Is) $op N=$n: $(uptime)" >> "$OUT/uptime.log"
    # the driver's own JVM: bounded and frugal, it shares the 2 cores with everything it measures
    java -XX:+UseSerialGC -Xmx1g -jar bench/target/stint-bench.jar run --n="$n" --operator="$op" --out="$OUT" --concurrency="$CONCURRENCY" \
      --churn-seconds="$CHURN" --settle="$SETTLE" --cluster-dir="$STINT_CLUSTER_DIR" \
      --operator-metrics="http://127.0.0.1:$METRICS_PORT/metrics" ${SCENARIOS:+--scenarios=$SCENARIOS} \
      ${LABEL:+"--label=$LABEL"} -- "${CMD[@]}" || log "run $op N=$n failed; going on"
    e2e/cluster.sh down >/dev/null
  done
done
uptime | tee -a "$OUT/uptime.log" >&2
java -jar bench/target/stint-bench.jar report --out="$OUT"
log "report: $OUT/report.md"
