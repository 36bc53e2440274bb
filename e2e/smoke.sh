#!/usr/bin/env bash
# Smoke check of the local cluster started by e2e/cluster.sh up: kwok pod lifecycle (Running,
# Succeeded/Failed with an exit code via the stint.dev/kwok-exit-code annotation, deletion),
# garbage collection through ownerReferences, a CRD with a CEL validation rule, namespace deletion.
# Exits non-zero on the first failure.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/versions.sh"
export KUBECONFIG="${KUBECONFIG:-$STINT_CLUSTER_DIR/kubeconfig}"
KUBECTL="${KUBECTL:-kubectl}"
TIMEOUT="${STINT_SMOKE_TIMEOUT:-60}"
NS="stint-smoke-$$"
CRD="smokewidgets.smoke.stint.dev"
k() { "$KUBECTL" "$@"; }

step() { echo "smoke: $*"; }
now_ms() { date +%s%3N; }
failed() {
  echo "smoke: FAILED: $*" >&2
  k get pods -n "$NS" -o wide >&2 2>/dev/null || true
  exit 1
}
cleanup() { k delete crd "$CRD" --ignore-not-found --wait=false >/dev/null 2>&1 || true
            k delete ns "$NS" --ignore-not-found --wait=false >/dev/null 2>&1 || true; }
trap cleanup EXIT

# wait_for <description> <command...>: polls until the command succeeds
wait_for() {
  local what="$1"; shift
  local end=$((SECONDS + TIMEOUT))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || failed "timed out after ${TIMEOUT}s: $what"
    sleep 0.2
  done
}
jp() { k get "$@" 2>/dev/null; }                 # k get ... -o jsonpath=...
is() { [ "$(jp "${@:2}")" = "$1" ]; }            # is <expected> <get args...>
gone() { ! k get "$@" >/dev/null 2>&1; }

pod() { # name [exit-code]
  local ann=""
  [ -n "${2:-}" ] && ann="  annotations: {stint.dev/kwok-exit-code: \"$2\"}"
  k apply -n "$NS" -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: $1
  labels: {smoke: $1}
$ann
spec:
  restartPolicy: Never
  containers:
  - {name: main, image: registry.invalid/stint/trainer:1}
  - {name: side, image: registry.invalid/stint/sidecar:1}
EOF
}

# ends_with NAME PHASE CODE: waits for the pod's PHASE, then checks that both its containers exited with CODE
ends_with() {
  wait_for "pod $1 $2" is "$2" pod "$1" -n "$NS" -o 'jsonpath={.status.phase}'
  local codes; codes=$(jp pod "$1" -n "$NS" -o 'jsonpath={.status.containerStatuses[*].state.terminated.exitCode}')
  [ "$codes" = "$3 $3" ] || failed "pod $1 exit codes '$codes', want '$3 $3'"
}

k get --raw /readyz >/dev/null || failed "API server not ready (KUBECONFIG=$KUBECONFIG)"
step "namespace $NS"
k create namespace "$NS" >/dev/null
wait_for "default ServiceAccount in $NS" k get sa default -n "$NS"

step "pod goes Running on a kwok node"
t=$(now_ms); pod running
wait_for "pod running is Running" is Running pod running -n "$NS" -o 'jsonpath={.status.phase}'
node=$(jp pod running -n "$NS" -o 'jsonpath={.spec.nodeName}')
[[ "$node" == kwok-node-* ]] || failed "pod running is on node '$node', not a kwok node"
is True pod running -n "$NS" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' || failed "pod running is not Ready"
step "  Running on $node after $(( $(now_ms) - t )) ms"

step "Services: a ClusterIP gets an IP; EndpointSlices list the Running pod"
k create service clusterip web -n "$NS" --tcp=80:8080 >/dev/null
k apply -n "$NS" -f - >/dev/null <<EOF
apiVersion: v1
kind: Service
metadata: {name: headless}
spec: {clusterIP: None, selector: {smoke: running}, ports: [{port: 29500}]}
EOF
ip=$(jp service web -n "$NS" -o 'jsonpath={.spec.clusterIP}')
[[ "$ip" == 10.96.* ]] || failed "service web has clusterIP '$ip'"
podip=$(jp pod running -n "$NS" -o 'jsonpath={.status.podIP}')
wait_for "EndpointSlice of headless lists $podip" is "$podip" endpointslices -n "$NS" -l kubernetes.io/service-name=headless -o 'jsonpath={.items[*].endpoints[*].addresses[*]}'

step "pod annotated exit 0 ends Succeeded with exitCode 0"
t=$(now_ms); pod ok 0
ends_with ok Succeeded 0
step "  Succeeded after $(( $(now_ms) - t )) ms"

step "pod annotated exit 3 ends Failed with exitCode 3"
t=$(now_ms); pod bad 3
ends_with bad Failed 3
step "  Failed after $(( $(now_ms) - t )) ms"

step "Running pod patched with exit 137 ends Failed with exitCode 137"
k annotate pod running -n "$NS" stint.dev/kwok-exit-code=137 >/dev/null
ends_with running Failed 137

step "deleting a Running pod completes"
pod victim
wait_for "pod victim is Running" is Running pod victim -n "$NS" -o 'jsonpath={.status.phase}'
t=$(now_ms)
k delete pod victim -n "$NS" --wait=false >/dev/null
wait_for "pod victim gone" gone pod victim -n "$NS"
step "  gone after $(( $(now_ms) - t )) ms (default 30 s grace period requested)"

step "garbage collector deletes a dependant when its owner goes"
k create configmap owner -n "$NS" --from-literal=a=b >/dev/null
uid=$(jp configmap owner -n "$NS" -o 'jsonpath={.metadata.uid}')
k apply -n "$NS" -f - >/dev/null <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: dependant
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, uid: "$uid"}]
data: {a: b}
EOF
t=$(now_ms)
k delete configmap owner -n "$NS" >/dev/null
wait_for "configmap dependant deleted by GC" gone configmap dependant -n "$NS"
step "  dependant gone after $(( $(now_ms) - t )) ms"

step "CRD with a CEL (x-kubernetes-validations) rule"
k apply -f - >/dev/null <<EOF
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: $CRD}
spec:
  group: smoke.stint.dev
  names: {kind: SmokeWidget, plural: smokewidgets, singular: smokewidget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              min: {type: integer}
              max: {type: integer}
            x-kubernetes-validations:
            - rule: "self.min <= self.max"
              message: "min must not exceed max"
EOF
wait_for "CRD $CRD Established" is True crd "$CRD" -o 'jsonpath={.status.conditions[?(@.type=="Established")].status}'
widget() { printf 'apiVersion: smoke.stint.dev/v1\nkind: SmokeWidget\nmetadata: {name: %s}\nspec: {min: %s, max: %s}\n' "$1" "$2" "$3"; }
wait_for "valid SmokeWidget accepted" k apply -n "$NS" -f <(widget good 1 2)
if out=$(widget bad 3 2 | k apply -n "$NS" -f - 2>&1); then failed "invalid SmokeWidget was accepted: CEL rules are not enforced"; fi
grep -q "min must not exceed max" <<<"$out" || failed "invalid SmokeWidget rejected for another reason: $out"
step "  invalid object rejected: $(grep -o 'min must not exceed max' <<<"$out")"
k delete crd "$CRD" >/dev/null

step "namespace deletion completes"
t=$(now_ms)
k delete namespace "$NS" --wait=false >/dev/null
wait_for "namespace $NS gone" gone namespace "$NS"
step "  gone after $(( $(now_ms) - t )) ms"
trap - EXIT
echo "smoke: all checks passed"
