# shellcheck shell=bash disable=SC2034
# Sourced by e2e/testbin.sh, e2e/cluster.sh and e2e/smoke.sh: pinned versions and cache paths
# of the local control-plane binaries. Override any of them from the environment.
: "${STINT_KUBE_VERSION:=v1.36.3}"   # k8s.io/kubernetes: kube-apiserver, kube-controller-manager, kube-scheduler
: "${STINT_ETCD_VERSION:=v3.6.16}"   # go.etcd.io/etcd/server/v3
: "${STINT_KWOK_VERSION:=v0.8.0}"    # sigs.k8s.io/kwok
: "${STINT_KUEUE_VERSION:=v0.17.0}"  # sigs.k8s.io/kueue: the Kueue manager + its CRDs (e2e/cluster.sh kueue ...)
: "${STINT_HELM_VERSION:=v4.3.2}"   # helm.sh/helm/v4: helm lint/template/install of charts/stint (ChartIT, ChartRbacIT)
: "${STINT_PROMETHEUS_VERSION:=v0.316.0}"  # github.com/prometheus/prometheus (Prometheus 3.16): prometheus + promtool
: "${STINT_TESTBIN_DIR:=$HOME/.cache/stint/testbin}"
: "${STINT_CLUSTER_DIR:=$HOME/.cache/stint/cluster}"

STINT_KUBE_BIN="$STINT_TESTBIN_DIR/kubernetes-$STINT_KUBE_VERSION"
STINT_ETCD_BIN="$STINT_TESTBIN_DIR/etcd-$STINT_ETCD_VERSION"
# kwok is built with e2e/kwok-uid-preconditions.patch, kwok-lease-seen.patch and kwok-watch-resume.patch (testbin.sh
# says why)
STINT_KWOK_BIN="$STINT_TESTBIN_DIR/kwok-$STINT_KWOK_VERSION-stint"
STINT_KUEUE_BIN="$STINT_TESTBIN_DIR/kueue-$STINT_KUEUE_VERSION"
STINT_HELM_BIN="$STINT_TESTBIN_DIR/helm-$STINT_HELM_VERSION"
STINT_PROMETHEUS_BIN="$STINT_TESTBIN_DIR/prometheus-$STINT_PROMETHEUS_VERSION"
