# shellcheck shell=bash
# Sourced by e2e/cluster.sh: `cluster.sh kueue up|down|restart|status`, a real Kueue (built by e2e/testbin.sh) run as
# a process beside the local control plane, the way Stint's Kueue ITs need it: Stint's kinds registered as
# integrations.externalFrameworks (Kueue's kubeflow integrations off), so Kueue creates no Workload for them and
# Stint speaks the Workload protocol itself. Uses cluster.sh's helpers (start, stop, live_pid, free_port, fail, k).
# Started on demand (the LocalKueue test fixture calls `kueue up`), not by `cluster.sh up`: unrelated ITs pay nothing.
# `kueue up kubeflow` starts it instead the way `--kueue=off` (Stint's default) is used: Kueue's own
# kubeflow.org/pytorchjob integration on (it creates a PyTorchJob's Workload and drives runPolicy.suspend), the other
# kinds still external. `kueue up external-all` is `external` with manageJobsWithoutQueueName on, under which Kueue's
# batch/job integration looks at every Job, the MPI launcher Job that Stint creates included.
# The mode is kept in $KUEUE_DIR/mode; `up` in another mode restarts Kueue, `restart` keeps it.

KUEUE_DIR="$DIR/kueue"
# Kueue v0.17.0 hard-codes where the metrics server's certificate is read when internalCertManagement is off
# (cmd/kueue/main.go); the alternative, internalCertManagement on, needs the kustomized CRDs with conversion webhooks.
KUEUE_METRICS_CERTS="${STINT_KUEUE_METRICS_CERTS:-/etc/kueue/metrics/certs}"

self_signed() { # dir: writes tls.crt/tls.key for localhost into it
  mkdir -p "$1"
  openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=localhost" \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$1/tls.key.tmp" -out "$1/tls.crt.tmp" 2>/dev/null
  mv "$1/tls.key.tmp" "$1/tls.key"; mv "$1/tls.crt.tmp" "$1/tls.crt"
}

# The metrics directory is shared by every local cluster on the machine: written once, under a lock, never removed.
kueue_metrics_certs() {
  local parent; parent="$(dirname "$KUEUE_METRICS_CERTS")"
  if [ -s "$KUEUE_METRICS_CERTS/tls.crt" ] && [ -s "$KUEUE_METRICS_CERTS/tls.key" ]; then return 0; fi
  mkdir -p "$KUEUE_METRICS_CERTS" 2>/dev/null && [ -w "$KUEUE_METRICS_CERTS" ] \
    || fail "Kueue reads its metrics certificate from $KUEUE_METRICS_CERTS (hard-coded in Kueue v0.17.0 when internalCertManagement is off) and it cannot be created; run once: sudo mkdir -p $KUEUE_METRICS_CERTS && sudo chown $(id -u) $KUEUE_METRICS_CERTS"
  (
    flock 8
    [ -s "$KUEUE_METRICS_CERTS/tls.crt" ] && [ -s "$KUEUE_METRICS_CERTS/tls.key" ] || self_signed "$KUEUE_METRICS_CERTS"
  ) 8>"$parent/.stint-lock"
}

KUEUE_MODES="external external-all kubeflow"

write_kueue_config() { # mode: external (every Stint kind external), external-all (and every job managed) or kubeflow
  local fw='"PyTorchJob.v1.kubeflow.org", "TFJob.v1.kubeflow.org", "MPIJob.v2beta1.kubeflow.org", "JAXJob.v1.kubeflow.org"'
  local own='"batch/job"' all=false
  [ "$1" = external-all ] && all=true
  if [ "$1" = kubeflow ]; then # a kind may not be in both lists
    fw='"TFJob.v1.kubeflow.org", "MPIJob.v2beta1.kubeflow.org", "JAXJob.v1.kubeflow.org"'
    own='"batch/job", "kubeflow.org/pytorchjob"'
  fi
  cat > "$KUEUE_DIR/config.yaml" <<EOF
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
namespace: kueue-system
health: {healthProbeBindAddress: "127.0.0.1:$KUEUE_HEALTH_PORT"}
metrics: {bindAddress: "127.0.0.1:$KUEUE_METRICS_PORT"}
webhook: {host: 127.0.0.1, port: $KUEUE_WEBHOOK_PORT, certDir: "$KUEUE_DIR/webhook-certs"}
leaderElection: {leaderElect: false}
internalCertManagement: {enable: false}
clientConnection: {qps: 100, burst: 200}
manageJobsWithoutQueueName: $all
waitForPodsReady:
  timeout: ${STINT_KUEUE_PODS_READY_TIMEOUT:-20s}
  blockAdmission: false
  requeuingStrategy: {timestamp: Eviction, backoffBaseSeconds: 5, backoffMaxSeconds: 20, backoffLimitCount: 2}
integrations:
  frameworks: [$own]
  externalFrameworks: [$fw]
featureGates: {VisibilityOnDemand: false}
EOF
}

kueue_ready() { curl -sf --max-time 2 "http://127.0.0.1:$KUEUE_HEALTH_PORT/readyz"; }

kueue_mode() { cat "$KUEUE_DIR/mode" 2>/dev/null || echo external; }

kueue_start() { # mode
  [ -x "$(bin_of kueue)" ] || fail "missing $(bin_of kueue): run e2e/testbin.sh first"
  [ -f "$DIR/ports.env" ] && live_pid kube-apiserver >/dev/null || fail "no cluster in $DIR (run e2e/cluster.sh up first)"
  mkdir -p "$KUEUE_DIR"
  kueue_metrics_certs
  [ -s "$KUEUE_DIR/webhook-certs/tls.crt" ] || self_signed "$KUEUE_DIR/webhook-certs"
  KUEUE_HEALTH_PORT=$(free_port); KUEUE_METRICS_PORT=$(free_port); KUEUE_WEBHOOK_PORT=$(free_port)
  printf 'KUEUE_HEALTH_PORT=%s\nKUEUE_METRICS_PORT=%s\nKUEUE_WEBHOOK_PORT=%s\n' \
    "$KUEUE_HEALTH_PORT" "$KUEUE_METRICS_PORT" "$KUEUE_WEBHOOK_PORT" > "$KUEUE_DIR/ports.env"
  write_kueue_config "$1"
  echo "$1" > "$KUEUE_DIR/mode"
  k create namespace kueue-system --dry-run=client -o yaml | k apply -f - >/dev/null || fail "could not create kueue-system"
  k apply --server-side --force-conflicts -f "$STINT_KUEUE_BIN/crds" >/dev/null || fail "could not apply Kueue's CRDs"
  k wait --for=condition=Established --timeout="${TIMEOUT}s" -f "$STINT_KUEUE_BIN/crds" >/dev/null \
    || fail "Kueue's CRDs are not established"
  # STINT_KUEUE_LOG_LEVEL=3 shows the TAS controllers' decisions (Kueue logs with zap; 0 is its default)
  start kueue "$(bin_of kueue)" --config="$KUEUE_DIR/config.yaml" --kubeconfig="$KCFG" \
    --zap-log-level="${STINT_KUEUE_LOG_LEVEL:-info}"
  wait_until "$TIMEOUT" kueue kueue_ready
}

cmd_kueue() {
  local t0=$SECONDS
  case "${1:-}" in
    up)
      local mode="${2:-external}"
      case " $KUEUE_MODES " in *" $mode "*) ;; *) fail "unknown Kueue mode '$mode' ($KUEUE_MODES)" ;; esac
      if live_pid kueue >/dev/null && [ "$(kueue_mode)" = "$mode" ] && . "$KUEUE_DIR/ports.env" \
          && kueue_ready >/dev/null 2>&1; then
        log "kueue already up ($mode)"; return 0
      fi
      stop kueue 2>/dev/null || true
      mkdir -p "$LOGS"; echo "----- started ($mode) at $(date -u +%FT%TZ) -----" >> "$LOGS/kueue.log"
      START_APPEND=1 kueue_start "$mode"
      log "kueue $STINT_KUEUE_VERSION up ($mode) in $((SECONDS - t0)) s (health 127.0.0.1:$KUEUE_HEALTH_PORT); log $LOGS/kueue.log" ;;
    restart)
      local mode; mode="$(kueue_mode)"
      stop kueue 2>/dev/null || true
      echo "----- restarted ($mode) at $(date -u +%FT%TZ) -----" >> "$LOGS/kueue.log"
      START_APPEND=1 kueue_start "$mode"
      log "kueue restarted in $((SECONDS - t0)) s" ;;
    down) if stop kueue; then log "kueue stopped"; else log "kueue not running"; fi ;;
    status)
      local pid
      if pid="$(live_pid kueue)" && . "$KUEUE_DIR/ports.env" && kueue_ready >/dev/null 2>&1; then
        echo "kueue: running (pid $pid, $(kueue_mode)), ready at http://127.0.0.1:$KUEUE_HEALTH_PORT/readyz"
      else
        echo "kueue: not running"; return 1
      fi ;;
    *) echo "usage: cluster.sh kueue up [external|external-all|kubeflow]|down|restart|status" >&2; return 2 ;;
  esac
}
