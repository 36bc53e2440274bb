#!/usr/bin/env bash
# The Kubeflow training operator v1 as a comparison point for bench/run.sh --operator=kubeflow.
#
#   bench/kubeflow.sh build            go install github.com/kubeflow/training-operator/cmd/training-operator.v1@v1.9.3
#                                      into ~/.cache/stint/testbin/training-operator-<version>/ (no-op when there)
#   bench/kubeflow.sh crd              print the path of its PyTorchJob CRD (in the module, downloaded when missing)
#   bench/kubeflow.sh prepare          on the cluster of KUBECONFIG: its own PyTorchJob CRD (from the same module), the
#                                      "kubeflow" namespace and the empty webhook-cert Secret its cert rotator fills
#   bench/kubeflow.sh command [flags]  print the command line that runs it, one word per line
#   bench/kubeflow.sh exec [flags]     run it (upstream defaults plus flags) with KUBECONFIG, as its Deployment would
#
# The module has no replace directives, so the plain `go install module/cmd@version` works. Its validating webhook
# is not registered with the API server (nothing would route to it); the operator still serves it on a local port.
# In a pod the kubelet mounts the cert Secret, which the operator's cert rotator fills, at
# /tmp/k8s-webhook-server/serving-certs, and the operator waits for those files before it starts its controllers;
# `exec` plays the kubelet's part with a short-lived background copy, then execs the operator (same PID).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/../e2e/versions.sh"
: "${STINT_KUBEFLOW_VERSION:=v1.9.3}"
MODULE=github.com/kubeflow/training-operator
BIN_DIR="$STINT_TESTBIN_DIR/training-operator-$STINT_KUBEFLOW_VERSION"
BIN="$BIN_DIR/training-operator.v1"
KUBECTL="${KUBECTL:-kubectl}"

# below the ephemeral range (32768 up on Linux), which outgoing connections take their local ports from
free_port() { local p; while :; do p=$((20000 + RANDOM % 12768)); ss -Htan "sport = :$p" | grep -q . || { echo "$p"; return; }; done; }

# the operator's PyTorchJob CRD, from the module's source
crd() {
  local src
  src="$(GOFLAGS=-mod=mod go mod download -json "$MODULE@$STINT_KUBEFLOW_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  echo "$src/manifests/base/crds/kubeflow.org_pytorchjobs.yaml"
}

case "${1:-}" in
  build)
    [ -f "$BIN_DIR/.stamp" ] && exit 0
    echo "kubeflow: building $MODULE/cmd/training-operator.v1@$STINT_KUBEFLOW_VERSION (a few minutes the first time)" >&2
    rm -rf "$BIN_DIR.tmp"; mkdir -p "$BIN_DIR.tmp"
    GOTOOLCHAIN="${GOTOOLCHAIN:-local}" CGO_ENABLED=0 GOFLAGS=-buildvcs=false GOBIN="$BIN_DIR.tmp" \
      nice -n 10 go install -trimpath -ldflags='-s -w' "$MODULE/cmd/training-operator.v1@$STINT_KUBEFLOW_VERSION"
    echo "$MODULE $STINT_KUBEFLOW_VERSION" > "$BIN_DIR.tmp/.stamp"
    rm -rf "$BIN_DIR"; mv "$BIN_DIR.tmp" "$BIN_DIR"
    ;;
  crd)
    crd
    ;;
  prepare)
    "$KUBECTL" apply --server-side -f "$(crd)"
    "$KUBECTL" create namespace kubeflow --dry-run=client -o yaml | "$KUBECTL" apply -f -
    "$KUBECTL" -n kubeflow create secret generic training-operator-webhook-cert --dry-run=client -o yaml | "$KUBECTL" apply -f -
    ;;
  command)
    shift
    printf '%s\n' "$HERE/kubeflow.sh" exec "$@"
    ;;
  exec)
    shift
    certs=/tmp/k8s-webhook-server/serving-certs
    mkdir -p "$certs"; rm -f "$certs/tls.crt" "$certs/tls.key"
    (
      for _ in $(seq 600); do
        crt="$("$KUBECTL" -n kubeflow get secret training-operator-webhook-cert -o 'jsonpath={.data.tls\.crt}' 2>/dev/null || true)"
        key="$("$KUBECTL" -n kubeflow get secret training-operator-webhook-cert -o 'jsonpath={.data.tls\.key}' 2>/dev/null || true)"
        if [ -n "$crt" ] && [ -n "$key" ]; then
          base64 -d <<< "$key" > "$certs/tls.key"; base64 -d <<< "$crt" > "$certs/tls.crt"; exit 0
        fi
        sleep 0.5
      done
    ) < /dev/null > /dev/null 2>&1 &
    exec "$BIN" --enable-scheme=pytorchjob --metrics-bind-address=0 \
      --health-probe-bind-address="127.0.0.1:$(free_port)" --webhook-server-port="$(free_port)" "$@"
    ;;
  *) sed -n '2,16p' "$0" >&2; exit 2 ;;
esac
