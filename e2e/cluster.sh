#!/usr/bin/env bash
# A local Kubernetes control plane for integration tests, from the binaries e2e/testbin.sh builds:
# etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok (fake nodes and pods).
#
#   e2e/cluster.sh up       start it in the background (idempotent); waits until the API server
#                           is ready, the kwok nodes are Ready and default/default ServiceAccount exists
#   e2e/cluster.sh down     stop it and delete its state (idempotent)
#   e2e/cluster.sh status   exit 0 if it is up and healthy
#   e2e/cluster.sh env      print `export KUBECONFIG=...`
#   e2e/cluster.sh restart-apiserver [--kill]
#                           stop kube-apiserver (SIGTERM, or SIGKILL with --kill) and start it again on the same port,
#                           certificates and etcd data; returns once it is ready (fault tests: ChaosIT)
#   e2e/cluster.sh restart-etcd [--kill]
#                           stop etcd (SIGTERM, or SIGKILL with --kill) and start it again on the same ports and data;
#                           kube-apiserver keeps running; returns once it is ready again (fault tests: ChaosIT)
#   e2e/cluster.sh compact-etcd
#                           compact etcd to its current revision, so that older watches get 410 Gone; prints it
#
# Environment:
#   STINT_CLUSTER_DIR     state, logs, PKI, kubeconfig (default ~/.cache/stint/cluster)
#   STINT_KWOK_NODES      number of fake nodes (default 4)
#   STINT_KWOK_NODE_CPU / STINT_KWOK_NODE_MEMORY / STINT_KWOK_NODE_PODS   node capacity (32 / 256Gi / 110)
#   STINT_KCM_CONTROLLERS kube-controller-manager --controllers (default: see KCM_CONTROLLERS below)
#   STINT_APISERVER_EXTRA_ARGS  extra kube-apiserver flags (space separated)
#   STINT_KWOK_POD_PARALLELISM  kwok pod-stage workers (default 16; kwok's own default is 4)
#   STINT_UP_TIMEOUT      seconds to wait for each readiness step (default 180)
#   STINT_KUEUE_PODS_READY_TIMEOUT  Kueue's waitForPodsReady.timeout (default 20s)
#   KUBECTL               kubectl to use (default: the one testbin.sh built if STINT_TESTBIN_KUBECTL=1, else PATH)
# The admin kubeconfig (user "admin", group system:masters, RSA client cert, data inlined) is
# $STINT_CLUSTER_DIR/kubeconfig; kubeconfig-replica-a and -b beside it are admins too (users stint-replica-a and -b,
# also in group stint:replicas), for two operator replicas that the audit log tells apart.
# The API server enforces OwnerReferencesPermissionEnforcement (as OpenShift does: setting blockOwnerDeletion needs
# update on the owner's finalizers) and writes $STINT_CLUSTER_DIR/logs/audit.log: the requests of the ServiceAccount
# stint-system/stint and of group stint:replicas only, at level Metadata (user, verb, resource, namespace, response
# code).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/versions.sh"

DIR="$STINT_CLUSTER_DIR"
KCFG="$DIR/kubeconfig"
PKI="$DIR/pki"
LOGS="$DIR/logs"
PIDS="$DIR/pids"
NODES="${STINT_KWOK_NODES:-4}"
TIMEOUT="${STINT_UP_TIMEOUT:-180}"
KUBECTL="${KUBECTL:-kubectl}"
[ "$KUBECTL" = kubectl ] && [ -x "$STINT_KUBE_BIN/kubectl" ] && KUBECTL="$STINT_KUBE_BIN/kubectl"
KCM_CONTROLLERS="${STINT_KCM_CONTROLLERS:-garbage-collector-controller,namespace-controller,serviceaccount-controller,serviceaccount-token-controller,root-ca-certificate-publisher-controller,pod-garbage-collector-controller,job-controller,ttl-after-finished-controller,endpoints-controller,endpointslice-controller,resourcequota-controller,clusterrole-aggregation-controller}"
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)

log() { echo "cluster: $*" >&2; }
k() { "$KUBECTL" --kubeconfig="$KCFG" "$@"; }

bin_of() {
  case "$1" in
    etcd) echo "$STINT_ETCD_BIN/etcd" ;;
    kwok) echo "$STINT_KWOK_BIN/kwok" ;;
    kueue) echo "$STINT_KUEUE_BIN/kueue" ;;
    *) echo "$STINT_KUBE_BIN/$1" ;;
  esac
}

# pid of a component if it is alive and still runs our binary (guards against pid reuse)
live_pid() {
  local f="$PIDS/$1" pid
  [ -f "$f" ] || return 1
  pid="$(cat "$f")"
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' '\n' < "/proc/$pid/cmdline" | head -1 | grep -qxF "$(bin_of "$1")" || return 1
  echo "$pid"
}

tail_log() { [ -f "$LOGS/$1.log" ] && { echo "----- tail of $LOGS/$1.log -----" >&2; tail -n "${2:-40}" "$LOGS/$1.log" >&2; }; return 0; }

fail() { # message [component whose log to show]
  log "ERROR: $1"
  if [ -n "${2:-}" ]; then tail_log "$2"; else local c; for c in "${COMPONENTS[@]}"; do live_pid "$c" >/dev/null || tail_log "$c" 20; done; fi
  if [ "${STARTING:-0}" = 1 ]; then log "stopping the partly started cluster (logs stay in $LOGS)"; STARTING=0; cmd_down >/dev/null 2>&1 || true; fi
  exit 1
}

# wait_until <seconds> <component-to-blame> <command...>: also fails fast when that component dies
wait_until() {
  local t="$1" who="$2"; shift 2
  local end=$((SECONDS + t))
  until "$@" >/dev/null 2>&1; do
    if [ -n "$who" ] && ! live_pid "$who" >/dev/null; then fail "$who exited while waiting for: $*" "$who"; fi
    [ $SECONDS -lt $end ] || fail "timed out after ${t}s waiting for: $*" "$who"
    sleep 0.5
  done
}

# Ports come from below the kernel's ephemeral range: a port in it can be the local end of some outgoing connection
# when a component binds it (a Kueue restart in CI failed with "bind: address already in use" on such a port), and a
# port with a socket in any state is passed over.
EPHEMERAL_LOW=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
[ "$EPHEMERAL_LOW" -gt 22000 ] 2>/dev/null || EPHEMERAL_LOW=50000
port_free() { ! ss -Htan "sport = :$1" 2>/dev/null | grep -q .; }
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % (EPHEMERAL_LOW - 20000)))
    port_free "$p" && ! grep -qx "$p" "$DIR/.ports" 2>/dev/null && { echo "$p" >> "$DIR/.ports"; echo "$p"; return; }
  done
}

start() { # name binary args...
  local name="$1" pid; shift
  # setsid: own session, so the processes outlive the calling shell and its job control
  if [ "${START_APPEND:-0}" = 1 ]; then setsid "$@" >> "$LOGS/$name.log" 2>&1 < /dev/null &
  else setsid "$@" > "$LOGS/$name.log" 2>&1 < /dev/null &
  fi
  pid=$!
  echo "$pid" > "$PIDS/$name"
  # wait until the forked shell has exec'd the binary, so live_pid recognises it
  for _ in $(seq 100); do
    live_pid "$name" >/dev/null && return 0
    [ -d "/proc/$pid" ] || break
    sleep 0.05
  done
  live_pid "$name" >/dev/null || fail "$name did not start" "$name"
}

pki() {
  mkdir -p "$PKI"
  local o="openssl"
  $o req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=stint-test-ca" -keyout "$PKI/ca.key" -out "$PKI/ca.crt" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" 2>/dev/null
  cert() { # name subject extensions
    $o req -newkey rsa:2048 -nodes -subj "$2" -keyout "$PKI/$1.key" -out "$PKI/$1.csr" 2>/dev/null
    printf '%b' "$3" > "$PKI/$1.ext"
    $o x509 -req -in "$PKI/$1.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -CAcreateserial -days 365 \
      -extfile "$PKI/$1.ext" -out "$PKI/$1.crt" 2>/dev/null
  }
  cert apiserver "/CN=kube-apiserver" \
    "subjectAltName=DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:127.0.0.1,IP:10.96.0.1\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
  cert admin "/O=system:masters/CN=admin" "extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
  # two operator replicas told apart in the audit log (ChaosIT's paused leader): admins, in a group the policy logs
  local r
  for r in a b; do
    cert "replica-$r" "/O=system:masters/O=stint:replicas/CN=stint-replica-$r" \
      "extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
  done
  $o genrsa -out "$PKI/sa.key" 2048 2>/dev/null
  $o rsa -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub" 2>/dev/null
}

# a kubeconfig of the local cluster for a user of pki(): the admin's is $KCFG, a replica's $DIR/kubeconfig-replica-<r>
write_kubeconfig() {
  local user="${1:-admin}" file="${2:-$KCFG}" b64="base64 -w0"
  cat > "$file.tmp" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: stint
  cluster:
    server: https://127.0.0.1:$APISERVER_PORT
    certificate-authority-data: $($b64 < "$PKI/ca.crt")
users:
- name: $user
  user:
    client-certificate-data: $($b64 < "$PKI/$user.crt")
    client-key-data: $($b64 < "$PKI/$user.key")
contexts:
- name: stint
  context: {cluster: stint, user: $user}
current-context: stint
EOF
  chmod 600 "$file.tmp"; mv "$file.tmp" "$file"
}

# The audit log records what deploy/'s ServiceAccount does (RbacIT reads it to prove each RBAC rule used and none
# refused) and what the two replica users do (ChaosIT reads it to prove a paused leader writes nothing on waking), and
# nothing else: every other client is a test or a control-plane component acting as system:masters.
write_audit_policy() {
  cat > "$DIR/audit-policy.yaml" <<EOF
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
  users: ["system:serviceaccount:stint-system:stint"]
- level: Metadata
  userGroups: ["stint:replicas"]
- level: None
EOF
}

# kube-apiserver on the ports of ports.env (sourced by the caller), with the PKI and etcd of this cluster
start_apiserver() {
  # shellcheck disable=SC2086
  start kube-apiserver "$(bin_of kube-apiserver)" \
    --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$APISERVER_PORT" \
    --cert-dir="$DIR/apiserver-certs" --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" \
    --client-ca-file="$PKI/ca.crt" --authorization-mode=RBAC --allow-privileged=true \
    --service-cluster-ip-range=10.96.0.0/16 \
    --service-account-issuer="https://127.0.0.1:$APISERVER_PORT" \
    --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
    --disable-admission-plugins=TaintNodesByCondition --endpoint-reconciler-type=none \
    --enable-admission-plugins=OwnerReferencesPermissionEnforcement \
    --audit-policy-file="$DIR/audit-policy.yaml" --audit-log-path="$LOGS/audit.log" --audit-log-maxbackup=1 \
    ${STINT_APISERVER_EXTRA_ARGS:-}
}

healthy() { # quick check used by status and by an idempotent up
  local c
  for c in "${COMPONENTS[@]}"; do live_pid "$c" >/dev/null || return 1; done
  [ -f "$KCFG" ] && [ -f "$DIR/ports.env" ] || return 1
  # shellcheck disable=SC1091
  . "$DIR/ports.env"
  curl -sf --max-time 5 --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" \
    "https://127.0.0.1:$APISERVER_PORT/readyz" >/dev/null
}

apiserver_ready() { curl -sf --max-time 5 --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" "https://127.0.0.1:$APISERVER_PORT/readyz"; }

# Two pools of nodes (even: a, odd: b) for Kueue's ResourceFlavors with different nodeLabels (LocalKueue in e2e).
pool_of() { if (( $1 % 2 == 0 )); then echo a; else echo b; fi; }

nodes_yaml() {
  local i cpu="${STINT_KWOK_NODE_CPU:-32}" mem="${STINT_KWOK_NODE_MEMORY:-256Gi}" pods="${STINT_KWOK_NODE_PODS:-110}"
  for ((i = 0; i < NODES; i++)); do cat <<EOF
apiVersion: v1
kind: Node
metadata:
  name: kwok-node-$i
  annotations: {kwok.x-k8s.io/node: fake, node.alpha.kubernetes.io/ttl: "0"}
  labels: {kubernetes.io/hostname: kwok-node-$i, kubernetes.io/os: linux, kubernetes.io/arch: amd64, type: kwok, stint.dev/pool: $(pool_of "$i")}
status:
  allocatable: {cpu: "$cpu", memory: "$mem", pods: "$pods"}
  capacity: {cpu: "$cpu", memory: "$mem", pods: "$pods"}
---
EOF
  done
}

ready_node_count() {
  k get nodes -l type=kwok -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' 2>/dev/null | grep -c '^True$' || true
}
all_nodes_ready() { [ "$(ready_node_count)" -ge "$NODES" ]; }

stop() { # component: SIGTERM, then SIGKILL after STINT_STOP_TIMEOUT seconds (default 10)
  local c="$1" pid
  pid="$(live_pid "$c")" || { rm -f "$PIDS/$c"; return 1; }
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq $((${STINT_STOP_TIMEOUT:-10} * 4))); do live_pid "$c" >/dev/null || break; sleep 0.25; done
  if live_pid "$c" >/dev/null; then log "$c ($pid) ignored SIGTERM, killing"; kill -KILL "$pid" 2>/dev/null || true; sleep 0.2; fi
  rm -f "$PIDS/$c"
}

cmd_down() {
  local i stopped=0
  stop kueue && stopped=1
  for ((i = ${#COMPONENTS[@]} - 1; i >= 0; i--)); do
    stop "${COMPONENTS[$i]}" && stopped=1
  done
  if [ -f "$DIR/etcd-data-dir" ]; then rm -rf "$(cat "$DIR/etcd-data-dir")"; rm -f "$DIR/etcd-data-dir"; fi
  rm -f "$DIR/ports.env" "$DIR/.ports" "$KCFG" "$DIR"/kubeconfig-replica-*
  if [ $stopped = 1 ]; then log "stopped"; else log "not running"; fi
}

cmd_up() {
  if healthy; then
    log "already up"
    echo "KUBECONFIG=$KCFG"
    return 0
  fi
  cmd_down >/dev/null 2>&1 || true
  local t0=$SECONDS c
  STARTING=1
  trap 'fail "interrupted"' INT TERM
  for c in "${COMPONENTS[@]}"; do
    [ -x "$(bin_of "$c")" ] || fail "missing $(bin_of "$c"): run e2e/testbin.sh first"
  done
  command -v "$KUBECTL" >/dev/null || fail "kubectl not found (set KUBECTL)"
  mkdir -p "$DIR" "$LOGS" "$PIDS"
  rm -f "$LOGS"/*.log "$DIR/.ports"
  rm -rf "$PKI"; pki

  ETCD_PORT=$(free_port); ETCD_PEER_PORT=$(free_port); APISERVER_PORT=$(free_port)
  KCM_PORT=$(free_port); SCHEDULER_PORT=$(free_port); KWOK_PORT=$(free_port)
  printf 'ETCD_PORT=%s\nETCD_PEER_PORT=%s\nAPISERVER_PORT=%s\nKCM_PORT=%s\nSCHEDULER_PORT=%s\nKWOK_PORT=%s\n' \
    "$ETCD_PORT" "$ETCD_PEER_PORT" "$APISERVER_PORT" "$KCM_PORT" "$SCHEDULER_PORT" "$KWOK_PORT" > "$DIR/ports.env"
  write_kubeconfig
  write_kubeconfig replica-a "$DIR/kubeconfig-replica-a"
  write_kubeconfig replica-b "$DIR/kubeconfig-replica-b"
  write_audit_policy

  # etcd on tmpfs when there is one, without fsync: test data only
  local etcd_data
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then etcd_data="$(mktemp -d /dev/shm/stint-etcd.XXXXXX)"; else etcd_data="$DIR/etcd-data"; mkdir -p "$etcd_data"; fi
  echo "$etcd_data" > "$DIR/etcd-data-dir"
  start_etcd

  start_apiserver
  wait_until "$TIMEOUT" kube-apiserver apiserver_ready

  start kube-controller-manager "$(bin_of kube-controller-manager)" \
    --kubeconfig="$KCFG" --authentication-kubeconfig="$KCFG" --authorization-kubeconfig="$KCFG" \
    --authentication-skip-lookup=true --leader-elect=false --bind-address=127.0.0.1 --secure-port="$KCM_PORT" \
    --service-account-private-key-file="$PKI/sa.key" --root-ca-file="$PKI/ca.crt" \
    --use-service-account-credentials=false --kube-api-qps=200 --kube-api-burst=400 \
    --controllers="$KCM_CONTROLLERS"

  cat > "$DIR/scheduler.yaml" <<EOF
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection: {kubeconfig: "$KCFG", qps: 200, burst: 400}
leaderElection: {leaderElect: false}
EOF
  start_scheduler

  # kwok: node stages and pod-ready/pod-delete from kwok's own module, plus Stint's exit-code stages
  local st="$STINT_KWOK_BIN/stages"
  { for f in node/fast/node-initialize node/heartbeat-with-lease/node-heartbeat-with-lease pod/fast/pod-ready pod/fast/pod-delete; do
      cat "$st/$f.yaml"; echo "---"; done
    cat "$HERE/kwok-stages.yaml"
    # kwok plays pod stages on 4 workers by default: under a burst of thousands of pods its queue lagged 20-30 s
    # behind, and a late pod-delete (by name, no UID precondition) then removed a new pod of the same name that a
    # resumed job had just created. Real kubelets work in parallel, one per node.
    # (a KwokConfiguration document is not defaulted: the other parallelisms are kwok's defaults, spelled out)
    printf -- '---\napiVersion: config.kwok.x-k8s.io/v1alpha1\nkind: KwokConfiguration\noptions:\n  podPlayStageParallelism: %s\n  nodePlayStageParallelism: 4\n  nodeLeaseParallelism: 4\n  podsOnNodeSyncParallelism: 1\n' \
      "${STINT_KWOK_POD_PARALLELISM:-16}"; } > "$DIR/kwok.yaml"
  mkdir -p "$DIR/kwok-home"
  HOME="$DIR/kwok-home" start kwok "$(bin_of kwok)" --kubeconfig="$KCFG" --config="$DIR/kwok.yaml" \
    --manage-all-nodes=false --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
    --node-ip=10.244.0.1 --cidr=10.244.0.0/16 --node-lease-duration-seconds=40 \
    --server-address="127.0.0.1:$KWOK_PORT"

  wait_until "$TIMEOUT" kube-controller-manager curl -skf --max-time 2 "https://127.0.0.1:$KCM_PORT/healthz"
  wait_until "$TIMEOUT" kube-scheduler curl -skf --max-time 2 "https://127.0.0.1:$SCHEDULER_PORT/healthz"
  wait_until "$TIMEOUT" kwok curl -sf --max-time 2 "http://127.0.0.1:$KWOK_PORT/healthz"

  nodes_yaml | k apply -f - > /dev/null || fail "could not create the kwok nodes" kube-apiserver
  wait_until "$TIMEOUT" kwok all_nodes_ready
  wait_until "$TIMEOUT" kube-controller-manager k get serviceaccount default -n default
  for c in "${COMPONENTS[@]}"; do live_pid "$c" >/dev/null || fail "$c exited" "$c"; done

  STARTING=0
  log "up in $((SECONDS - t0)) s: k8s $STINT_KUBE_VERSION, etcd $STINT_ETCD_VERSION, kwok $STINT_KWOK_VERSION, $NODES kwok nodes; logs in $LOGS"
  echo "KUBECONFIG=$KCFG"
}

# etcd on the ports of ports.env, with the data directory of etcd-data-dir; returns once it answers /health
start_etcd() {
  local etcd_data
  etcd_data="$(cat "$DIR/etcd-data-dir")"
  start etcd "$(bin_of etcd)" --name=stint --data-dir="$etcd_data" \
    --listen-client-urls="http://127.0.0.1:$ETCD_PORT" --advertise-client-urls="http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster="stint=http://127.0.0.1:$ETCD_PEER_PORT" --unsafe-no-fsync=true \
    --quota-backend-bytes=8589934592 --log-level=warn
  wait_until "$TIMEOUT" etcd curl -sf --max-time 2 "http://127.0.0.1:$ETCD_PORT/health"
}

# restart-etcd [--kill]: a new etcd process on the same ports and data (SIGTERM, or SIGKILL with --kill); the API
# server keeps running and finds it again. Returns once etcd answers /health and the API server /readyz.
cmd_restart_etcd() {
  local t0=$SECONDS
  [ -f "$DIR/ports.env" ] || fail "no cluster in $DIR (run up first)"
  # shellcheck disable=SC1091
  . "$DIR/ports.env"
  if [ "${1:-}" = --kill ]; then
    kill_now etcd
  else
    stop etcd 2>/dev/null || true
  fi
  echo "----- restarted at $(date -u +%FT%TZ) -----" >> "$LOGS/etcd.log"
  START_APPEND=1 start_etcd
  wait_until "$TIMEOUT" kube-apiserver apiserver_ready
  log "etcd restarted in $((SECONDS - t0)) s on port $ETCD_PORT"
}

start_scheduler() {
  start kube-scheduler "$(bin_of kube-scheduler)" --config="$DIR/scheduler.yaml" \
    --authentication-kubeconfig="$KCFG" --authorization-kubeconfig="$KCFG" --authentication-skip-lookup=true \
    --bind-address=127.0.0.1 --secure-port="$SCHEDULER_PORT"
}

# SIGKILL a component (a crash) and wait until it is gone
kill_now() {
  local pid
  if pid="$(live_pid "$1")"; then
    kill -KILL "$pid" 2>/dev/null || true
    for _ in $(seq 200); do [ -d "/proc/$pid" ] || break; sleep 0.05; done
  fi
  rm -f "$PIDS/$1"
}

# restart-apiserver [--kill]: a new kube-apiserver process on the same port, certificates and etcd (the data stays);
# SIGTERM by default (SIGKILL after STINT_RESTART_STOP_TIMEOUT s, default 3), SIGKILL (a crash) with --kill.
# Returns once /readyz answers again.
cmd_restart_apiserver() {
  local t0=$SECONDS
  [ -f "$DIR/ports.env" ] || fail "no cluster in $DIR (run up first)"
  # shellcheck disable=SC1091
  . "$DIR/ports.env"
  live_pid etcd >/dev/null || fail "etcd is not running" etcd
  if [ "${1:-}" = --kill ]; then
    kill_now kube-apiserver
  else
    # it stops listening within a second of SIGTERM, then lingers ~10 s more in its shutdown: 3 s is enough grace
    STINT_STOP_TIMEOUT="${STINT_RESTART_STOP_TIMEOUT:-3}" stop kube-apiserver 2>/dev/null || true
  fi
  echo "----- restarted at $(date -u +%FT%TZ) -----" >> "$LOGS/kube-apiserver.log"
  START_APPEND=1 start_apiserver
  wait_until "$TIMEOUT" kube-apiserver apiserver_ready
  # kube-scheduler 1.36 sometimes never scheduled again after an API server restart ("Scheduler cache is
  # corrupted", docs/fault-tests.md): the tests are about the operator, so the scheduler starts afresh each time
  stop kube-scheduler 2>/dev/null || true
  echo "----- restarted at $(date -u +%FT%TZ) -----" >> "$LOGS/kube-scheduler.log"
  START_APPEND=1 start_scheduler
  wait_until "$TIMEOUT" kube-scheduler curl -skf --max-time 2 "https://127.0.0.1:$SCHEDULER_PORT/healthz"
  log "kube-apiserver restarted in $((SECONDS - t0)) s on port $APISERVER_PORT (kube-scheduler with it)"
}

# compact-etcd: compacts etcd to its current revision (physically), through etcd's gRPC gateway (etcdctl is not
# built), so that every watch resuming from an older resource version gets 410 Gone. Prints the revision.
cmd_compact_etcd() {
  local rev
  [ -f "$DIR/ports.env" ] || fail "no cluster in $DIR (run up first)"
  # shellcheck disable=SC1091
  . "$DIR/ports.env"
  # a range read of any key returns the store's current revision in its header
  rev="$(curl -sf --max-time 10 -X POST "http://127.0.0.1:$ETCD_PORT/v3/kv/range" -d '{"key":"AA==","limit":1}' \
    | sed -n 's/.*"revision":"\{0,1\}\([0-9][0-9]*\).*/\1/p')"
  [ -n "$rev" ] || fail "could not read etcd's revision" etcd
  curl -sf --max-time 30 -X POST "http://127.0.0.1:$ETCD_PORT/v3/kv/compaction" \
    -d "{\"revision\":\"$rev\",\"physical\":true}" >/dev/null || fail "etcd compaction to $rev failed" etcd
  echo "$rev"
}

cmd_status() {
  local c pid ok=0
  for c in "${COMPONENTS[@]}"; do
    if pid="$(live_pid "$c")"; then echo "$c: running (pid $pid)"; else echo "$c: not running"; ok=1; fi
  done
  if [ $ok = 0 ] && healthy; then
    echo "kube-apiserver: ready at https://127.0.0.1:$APISERVER_PORT"
    echo "kwok nodes Ready: $(ready_node_count)"
    echo "KUBECONFIG=$KCFG"
  else
    ok=1
  fi
  return $ok
}

. "$HERE/kueue.sh"

case "${1:-}" in
  # a port found free can be taken before its component binds it (another process, another cluster): start again
  # on fresh ports, up to three times
  # (each attempt is its own process, so that set -e keeps stopping it at the first error)
  up) for attempt in 1 2 3; do "$0" up-once && exit 0; log "start attempt $attempt failed; trying again on other ports"; done
      exit 1 ;;
  up-once) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  env) echo "export KUBECONFIG=$KCFG" ;;
  restart-apiserver) shift; cmd_restart_apiserver "$@" ;;
  restart-etcd) shift; cmd_restart_etcd "$@" ;;
  compact-etcd) cmd_compact_etcd ;;
  kueue) shift; cmd_kueue "$@" ;;
  *) echo "usage: $0 up|down|status|env|restart-apiserver [--kill]|restart-etcd [--kill]|compact-etcd|kueue up [external|external-all|kubeflow]|down|restart|status" >&2; exit 2 ;;
esac
