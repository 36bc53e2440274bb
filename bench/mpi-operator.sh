#!/usr/bin/env bash
# The MPI Operator v2 (v0.6.0), the other controller of MPIJob kubeflow.org/v2beta1, for MpiOperatorSwapIT.
#
#   bench/mpi-operator.sh build            build github.com/kubeflow/mpi-operator/cmd/mpi-operator@v0.6.0 into
#                                          ~/.cache/stint/testbin/mpi-operator-<version>/ (no-op when there)
#   bench/mpi-operator.sh prepare          on the cluster of KUBECONFIG: the namespace of its leader-election lease
#   bench/mpi-operator.sh crd              print the path of its own MPIJob CRD (from the same module)
#   bench/mpi-operator.sh command [flags]  print the command line that runs it, one word per line
#   bench/mpi-operator.sh exec [flags]     run it with KUBECONFIG, cluster-scoped, as its Deployment would
#
# `go install module/cmd@version` is refused here (the proxy does not list the version), so the build goes through a
# throwaway module that requires the exact version, as e2e/testbin.sh builds Kubernetes. The operator always runs
# leader election (a Lease "mpi-operator" in --lock-namespace, 15 s) and serves its health check on :8080.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/../e2e/versions.sh"
: "${STINT_MPI_OPERATOR_VERSION:=v0.6.0}"
MODULE=github.com/kubeflow/mpi-operator
BIN_DIR="$STINT_TESTBIN_DIR/mpi-operator-$STINT_MPI_OPERATOR_VERSION"
BIN="$BIN_DIR/mpi-operator"
KUBECTL="${KUBECTL:-kubectl}"

module_dir() {
  GOFLAGS=-mod=mod go mod download -json "$MODULE@$STINT_MPI_OPERATOR_VERSION" \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p'
}

case "${1:-}" in
  build)
    [ -f "$BIN_DIR/.stamp" ] && exit 0
    echo "mpi-operator: building $MODULE/cmd/mpi-operator@$STINT_MPI_OPERATOR_VERSION (a few minutes the first time)" >&2
    mkdir -p "$STINT_TESTBIN_DIR"
    work="$(mktemp -d "${TMPDIR:-/tmp}/stint-mpi-operator.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    rm -rf "$BIN_DIR.tmp"; mkdir -p "$BIN_DIR.tmp"
    (
      cd "$work"
      export GOTOOLCHAIN="${GOTOOLCHAIN:-local}" CGO_ENABLED=0 GOFLAGS=-buildvcs=false
      go mod init stint.local/mpi-operator-build >/dev/null 2>&1
      go get "$MODULE/cmd/mpi-operator@$STINT_MPI_OPERATOR_VERSION" >&2
      nice -n 10 go build -trimpath -ldflags='-s -w' -o "$BIN_DIR.tmp/mpi-operator" "$MODULE/cmd/mpi-operator"
    )
    echo "$MODULE $STINT_MPI_OPERATOR_VERSION" > "$BIN_DIR.tmp/.stamp"
    rm -rf "$BIN_DIR"; mv "$BIN_DIR.tmp" "$BIN_DIR"
    ;;
  prepare)
    "$KUBECTL" create namespace mpi-operator --dry-run=client -o yaml | "$KUBECTL" apply -f -
    ;;
  crd)
    echo "$(module_dir)/manifests/base/kubeflow.org_mpijobs.yaml"
    ;;
  command)
    shift
    printf '%s\n' "$HERE/mpi-operator.sh" exec "$@"
    ;;
  exec)
    shift
    exec "$BIN" --lock-namespace=mpi-operator --threadiness=2 --kube-api-qps=50 --kube-api-burst=100 "$@"
    ;;
  *) sed -n '2,13p' "$0" >&2; exit 2 ;;
esac
