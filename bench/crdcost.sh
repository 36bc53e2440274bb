#!/usr/bin/env bash
# What the API server's validation of one PyTorchJob status write costs under a CRD, and each CEL rule's share,
# measured in one process without a cluster (bench/crdcost/main.go says how).
#
#   bench/crdcost.sh                         Stint's PyTorchJob CRD and the Kubeflow training operator's, side by side
#   bench/crdcost.sh -rules                  also each of Stint's rules alone
#   bench/crdcost.sh -crds a=<CRD>,b=<CRD>   any CRDs of PyTorchJob (-object for another stored job)
#
# Builds bench/crdcost into ~/.cache/stint/testbin/crdcost-<hash of its sources>/ when missing (apiextensions-apiserver
# of the control plane's Kubernetes version, from the Go module proxy). The figures are microseconds of one core.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/../e2e/versions.sh"
. "$HERE/go-tool.sh"
BIN="$(go_tool crdcost)"
args=("$@")
if [[ " $* " != *" -crds "* && " $* " != *" -crds="* ]]; then
  args=(-crds "stint=$HERE/../crds/pytorchjobs.kubeflow.org-v1.yml,kubeflow=$("$HERE/kubeflow.sh" crd)" "${args[@]}")
fi
if [[ " $* " != *" -object "* && " $* " != *" -object="* ]]; then
  args=(-object "$HERE/crdcost/job.yaml" "${args[@]}")
fi
exec "$BIN" "${args[@]}"
