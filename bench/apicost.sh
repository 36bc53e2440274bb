#!/usr/bin/env bash
# The API server's CPU for the same pod traffic in JSON and in protobuf (bench/apicost/main.go says what it does).
#
#   bench/apicost.sh [apicost flags]   pod traffic in JSON and protobuf, e.g. -n 2000 -rounds 3 -watchers 1
#   bench/apicost.sh -mode status -crds stint=crds/pytorchjobs.kubeflow.org-v1.yml,other=<CRD> [-n 800 -writes 5]
#                                      PyTorchJob status writes (apply, merge patch, update) under each CRD
#
# Builds bench/apicost into ~/.cache/stint/testbin/apicost-<hash of its sources>/ when missing, starts a control plane
# of its own (e2e/cluster.sh, state in $STINT_CLUSTER_DIR, default ~/.cache/stint/cluster-apicost), runs it against
# that API server, and stops the control plane. Run it on a quiet machine: the figures are CPU seconds.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export STINT_CLUSTER_DIR="${STINT_CLUSTER_DIR:-$HOME/.cache/stint/cluster-apicost}"
. "$HERE/../e2e/versions.sh"
. "$HERE/go-tool.sh"
BIN="$(go_tool apicost)"
trap '"$HERE/../e2e/cluster.sh" down >/dev/null 2>&1 || true' EXIT
"$HERE/../e2e/cluster.sh" up >&2
"$BIN" -kubeconfig "$STINT_CLUSTER_DIR/kubeconfig" -pid "$(cat "$STINT_CLUSTER_DIR/pids/kube-apiserver")" "$@"
