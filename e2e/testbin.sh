#!/usr/bin/env bash
# Builds the local control-plane binaries for integration tests from the Go module proxy, with
# the ordinary `go` command (no Docker, no binary downloads):
#   kube-apiserver, kube-controller-manager, kube-scheduler  (k8s.io/kubernetes, via a wrapper module)
#   etcd                                                     (go.etcd.io/etcd/server/v3, via a wrapper module)
#   kwok + its stage YAMLs                                   (sigs.k8s.io/kwok, patched, go build)
#   kueue + its CRDs (crds/)                                 (sigs.k8s.io/kueue, go install; ~7 min cold on 2 cores)
#   helm                                                     (helm.sh/helm/v4, via a wrapper module)
#   prometheus, promtool                                     (github.com/prometheus/prometheus, via a wrapper module)
# Usage: e2e/testbin.sh [COMPONENT...], COMPONENT one of etcd kwok kube kueue helm prometheus, or `cluster` for the
# first four (what the local cluster and Kueue need); no argument builds them all, as the Maven build (and so CI)
# does. Helm and Prometheus are needed only by the tests of charts/stint and deploy/monitoring, which skip (or, in
# the build, fail) without them; `e2e/testbin.sh cluster` leaves them out.
# Binaries are cached per component and version under $STINT_TESTBIN_DIR (default
# ~/.cache/stint/testbin/<component>-<version>/); a run with the cache present is a no-op.
# Wrapper go.mod files are generated in a temporary directory and removed afterwards.
# Set STINT_TESTBIN_KUBECTL=1 to also build a matching kubectl (not needed: any kubectl works).
set -Eeuo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/versions.sh"

export GOTOOLCHAIN="${GOTOOLCHAIN:-local}" CGO_ENABLED=0 GOFLAGS="-buildvcs=false"
NICE="nice -n 10"
WANT_KUBECTL="${STINT_TESTBIN_KUBECTL:-0}"

log() { echo "testbin: $*" >&2; }
die() { echo "testbin: ERROR: $*" >&2; exit 1; }
command -v go >/dev/null || die "go is not on PATH"

kube_done()  { [ -f "$STINT_KUBE_BIN/.stamp" ] && { [ "$WANT_KUBECTL" != 1 ] || [ -x "$STINT_KUBE_BIN/kubectl" ]; }; }
etcd_done()  { [ -f "$STINT_ETCD_BIN/.stamp" ]; }
kwok_patches() { echo "kwok-uid-preconditions.patch kwok-lease-seen.patch kwok-watch-resume.patch"; }
# the stamp names the patches by content, so that a changed patch builds kwok again
kwok_stamp() {
  local p; echo -n "sigs.k8s.io/kwok $STINT_KWOK_VERSION"
  for p in $(kwok_patches); do echo -n " + $p $(sha256sum < "$HERE/$p" | cut -c1-12)"; done; echo
}

kwok_done()  { [ "$(cat "$STINT_KWOK_BIN/.stamp" 2>/dev/null)" = "$(kwok_stamp)" ]; }
kueue_done() { [ -f "$STINT_KUEUE_BIN/.stamp" ]; }
helm_done()  { [ -f "$STINT_HELM_BIN/.stamp" ]; }
prometheus_done() { [ -f "$STINT_PROMETHEUS_BIN/.stamp" ]; }

WANT=()
for a in "$@"; do
  case "$a" in
    cluster) WANT+=(etcd kwok kube kueue) ;;
    etcd|kwok|kube|kueue|helm|prometheus) WANT+=("$a") ;;
    *) die "unknown component '$a' (etcd kwok kube kueue helm prometheus, or cluster)" ;;
  esac
done
[ ${#WANT[@]} -gt 0 ] || WANT=(etcd kwok kube kueue helm prometheus)
wanted() { [[ " ${WANT[*]} " == *" $1 "* ]]; }
all_done() { local c; for c in "${WANT[@]}"; do "${c}_done" || return 1; done; }

print_paths() {
  wanted kube && echo "kube-apiserver, kube-controller-manager, kube-scheduler $STINT_KUBE_VERSION: $STINT_KUBE_BIN"
  wanted etcd && echo "etcd $STINT_ETCD_VERSION: $STINT_ETCD_BIN"
  wanted kwok && echo "kwok $STINT_KWOK_VERSION (+ stages/): $STINT_KWOK_BIN"
  wanted kueue && echo "kueue $STINT_KUEUE_VERSION (+ crds/): $STINT_KUEUE_BIN"
  wanted helm && echo "helm $STINT_HELM_VERSION: $STINT_HELM_BIN"
  wanted prometheus && echo "prometheus, promtool $STINT_PROMETHEUS_VERSION: $STINT_PROMETHEUS_BIN"
  return 0
}

mkdir -p "$STINT_TESTBIN_DIR"
# What is asked for is built already (a stamp is written last): nothing to wait for, whatever else is being built
if all_done; then
  print_paths
  exit 0
fi
# One build at a time: two runs (say a `mvn verify` and bench/run.sh) would share the <dir>.tmp folders and remove
# each other's output. The second waits, then finds the cache filled.
exec 9>"$STINT_TESTBIN_DIR/.lock"
if ! flock -n 9; then
  log "another testbin build is running; waiting for it"
  flock 9
fi
if all_done; then
  print_paths
  exit 0
fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/stint-testbin.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# go mod download -json prints e.g.  "GoMod": "/root/go/pkg/mod/cache/download/.../v1.36.3.mod",
json_field() { sed -n "s/^[[:space:]]*\"$1\": \"\(.*\)\",\{0,1\}\$/\1/p"; }

# Build into <dir>.tmp, then rename, so an interrupted build never looks complete.
begin() { rm -rf "$1.tmp"; mkdir -p "$1.tmp"; }
finish() { echo "$2" > "$1.tmp/.stamp"; rm -rf "$1"; mv "$1.tmp" "$1"; }

build_kube() {
  local v="$STINT_KUBE_VERSION" out="$STINT_KUBE_BIN.tmp" src="$WORK/kube"
  local sv="v0.${v#v1.}" minor; minor="$(echo "$v" | cut -d. -f2)"
  log "building kube-apiserver, kube-controller-manager, kube-scheduler $v (staging modules $sv)"
  begin "$STINT_KUBE_BIN"
  mkdir -p "$src" && cd "$src"
  go mod init local/stint-k8s-testbin >/dev/null 2>&1
  local dl gomod; dl="$(go mod download -json "k8s.io/kubernetes@$v" 2>&1 || true)"
  gomod="$(json_field GoMod <<<"$dl")"
  [ -f "$gomod" ] || die "could not download k8s.io/kubernetes@$v: $(json_field Error <<<"$dl")"
  # k8s.io/kubernetes requires its staging modules at v0.0.0 and replaces them with ./staging/...;
  # replace directives only apply in the main module, so replace each one with its published v0.Y.Z.
  local staging; staging="$(sed -nE 's#^[[:space:]]*(replace[[:space:]]+)?([^[:space:]]+)[[:space:]]+=>[[:space:]]+\./staging/src/.*#\2#p' "$gomod" | sort -u)"
  [ -n "$staging" ] || die "no staging modules found in $gomod"
  local m args=()
  for m in $staging; do args+=("-replace=$m=$m@$sv"); done
  go mod edit "${args[@]}" -go="$(sed -nE 's/^go ([0-9.]+).*/\1/p' "$gomod")" -require="k8s.io/kubernetes@$v"
  grep -E '^godebug default=' "$gomod" >> go.mod || true
  local cmds=(k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler)
  [ "$WANT_KUBECTL" = 1 ] && cmds+=(k8s.io/kubernetes/cmd/kubectl)
  { echo '//go:build tools'; echo 'package tools'; echo 'import ('
    for m in "${cmds[@]}"; do echo "	_ \"$m\""; done; echo ')'; } > tools.go
  $NICE go mod tidy
  local now ldf p; now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"; ldf="-s -w"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldf="$ldf -X $p.gitVersion=$v -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean -X $p.gitCommit=$v -X $p.buildDate=$now"
  done
  $NICE go build -trimpath -tags=selinux,notest -ldflags="$ldf" -o "$out/" "${cmds[@]}"
  "$out/kube-apiserver" --version >&2
  cd - >/dev/null
  finish "$STINT_KUBE_BIN" "k8s.io/kubernetes $v"
}

build_etcd() {
  local v="$STINT_ETCD_VERSION" out="$STINT_ETCD_BIN.tmp" src="$WORK/etcd"
  log "building etcd $v"
  begin "$STINT_ETCD_BIN"
  mkdir -p "$src" && cd "$src"
  go mod init local/stint-etcd-testbin >/dev/null 2>&1
  go mod edit -require="go.etcd.io/etcd/server/v3@$v"
  printf '//go:build tools\npackage tools\nimport _ "go.etcd.io/etcd/server/v3"\n' > tools.go
  # `go install go.etcd.io/etcd/server/v3@v` is refused (server/go.mod has replace directives);
  # its published requirements are real versions, so a wrapper module needs no replace lines.
  $NICE go mod tidy
  $NICE go build -trimpath -ldflags="-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=$v" -o "$out/etcd" go.etcd.io/etcd/server/v3
  "$out/etcd" --version >&2
  cd - >/dev/null
  finish "$STINT_ETCD_BIN" "go.etcd.io/etcd/server/v3 $v"
}

# copy_from_module MODULE@VERSION FOLDER DEST GLOB: copies what matches GLOB (. for all) in FOLDER of the module (as
# published at that version, from the module cache) into DEST, writable so that the next build can replace it.
copy_from_module() {
  local dir; dir="$(cd "$WORK" && go mod download -json "$1" | json_field Dir)"
  [ -d "$dir/$2" ] || die "no $2 in $1 ($dir)"
  mkdir -p "$3"
  # shellcheck disable=SC2086 # the glob is meant to expand
  cp -r "$dir/$2"/$4 "$3/"
  chmod -R u+w "$3"
}

build_kwok() {
  local v="$STINT_KWOK_VERSION" out="$STINT_KWOK_BIN.tmp" src="$WORK/kwok-src" p
  # kwok $v with Stint's patches, built from its module source:
  # - kwok-uid-preconditions.patch, always: kwok deletes and patches a pod by name from its copy of the pod, and a stale
  #   copy (a grace-0 deletion's update comes before its deletion, kwok plays it after) deleted the pod a controller
  #   had made since under the same name; a gang restart of 100 pods went on deleting and recreating for minutes
  #   (GangRestartTimingIT). With the patch the API server refuses whatever is meant for another pod's UID.
  # - kwok-lease-seen.patch, always: when kwok takes a node's lease (the node made again) it syncs the node's pods at
  #   once, but skips each pod as read-only until its lease cache shows the lease; a pod deleted while the node was
  #   out then stayed Terminating for good (ChaosIT, twice in CI). kwok now waits for the cache first.
  # - kwok-watch-resume.patch, always: kwok watches again from where it left off, not from resourceVersion "0", which
  #   replayed every pod each time the API server ended a watch (docs/benchmarks.md, "Watches the API server ends")
  #   and, across an API server restart, never delivered what was deleted meanwhile: kwok's lease cache kept a lease
  #   the garbage collector had deleted (conflicts for 20 s, a node taken up again 40 s late). Watching from where
  #   it left off, a compacted revision gets 410 and kwok lists again, as a client-go informer does. The benchmark
  #   had it first (STINT_KWOK_RESUME=1, now gone).
  local patches; read -ra patches <<< "$(kwok_patches)"
  log "building kwok $v with ${patches[*]}"
  begin "$STINT_KWOK_BIN"
  rm -rf "$src" && copy_from_module "sigs.k8s.io/kwok@$v" . "$src" .
  for p in "${patches[@]}"; do
    (cd "$src" && if command -v patch >/dev/null; then patch -p1 --quiet; else git apply -p1 -; fi) < "$HERE/$p" \
      || die "could not apply e2e/$p to kwok $v"
  done
  (cd "$src" && GOFLAGS=-mod=mod $NICE go build -trimpath -ldflags="-s -w" -o "$out/kwok" ./cmd/kwok) \
    || die "could not build the patched kwok $v"
  # Stage YAMLs ship inside the module; take them from the same version as the binary.
  copy_from_module "sigs.k8s.io/kwok@$v" kustomize/stage "$out/stages" .
  "$out/kwok" --version >&2 || true
  finish "$STINT_KWOK_BIN" "$(kwok_stamp)"
}

build_kueue() {
  local v="$STINT_KUEUE_VERSION" out="$STINT_KUEUE_BIN.tmp"
  log "building kueue $v (about 7 minutes on 2 cores with a cold module cache)"
  begin "$STINT_KUEUE_BIN"
  # Kueue's go.mod has no replace directives, so `go install pkg@version` builds it as published.
  GOBIN="$out" $NICE go install -trimpath -ldflags="-s -w" "sigs.k8s.io/kueue/cmd/kueue@$v"
  # The CRDs ship inside the module (plain bases: v1beta2 stored, no conversion webhook section).
  copy_from_module "sigs.k8s.io/kueue@$v" config/components/crd/bases "$out/crds" '*.yaml'
  finish "$STINT_KUEUE_BIN" "sigs.k8s.io/kueue $v"
}

# A wrapper module that requires MODULE@VERSION exactly, for a main package of it: `go install pkg@version` consults
# the proxy's version list, which here may not list a version the proxy serves; a require of the exact version does
# not. Neither module below has replace directives, so its published requirements build as upstream's.
wrapper_module() {
  local src="$1" module="$2" v="$3"; shift 3
  mkdir -p "$src" && cd "$src"
  go mod init "local/stint-$(basename "$src")-testbin" >/dev/null 2>&1
  go mod edit -require="$module@$v"
  { echo '//go:build tools'; echo 'package tools'; echo 'import ('
    local p; for p in "$@"; do echo "	_ \"$p\""; done; echo ')'; } > tools.go
  $NICE go mod tidy
}

build_helm() {
  local v="$STINT_HELM_VERSION" out="$STINT_HELM_BIN.tmp"
  log "building helm $v (about 4 minutes on 2 cores with a cold module cache)"
  begin "$STINT_HELM_BIN"
  wrapper_module "$WORK/helm" helm.sh/helm/v4 "$v" helm.sh/helm/v4/cmd/helm
  # the version `helm version` prints (and charts' kubeVersion/apiVersion checks read): upstream's Makefile stamps it
  $NICE go build -trimpath -ldflags="-s -w -X helm.sh/helm/v4/internal/version.version=$v" -o "$out/helm" \
    helm.sh/helm/v4/cmd/helm
  "$out/helm" version >&2
  cd - >/dev/null
  finish "$STINT_HELM_BIN" "helm.sh/helm/v4 $v"
}

build_prometheus() {
  local v="$STINT_PROMETHEUS_VERSION" out="$STINT_PROMETHEUS_BIN.tmp" p=github.com/prometheus/prometheus
  log "building prometheus and promtool $v (about 8 minutes on 2 cores with a cold module cache)"
  begin "$STINT_PROMETHEUS_BIN"
  wrapper_module "$WORK/prometheus" "$p" "$v" "$p/cmd/prometheus" "$p/cmd/promtool"
  # Without the builtinassets tag the web UI is not embedded: the tests use the HTTP API only. The module's v0.X.Y
  # is Prometheus 3.X.Y; stamp that, as upstream's promu does, so that --version and /api/v1/status/buildinfo say it.
  local pv; pv="3.$(echo "$v" | sed -E 's/^v0\.3?([0-9]+)\.([0-9]+).*/\1.\2/' | sed -E 's/^0*([0-9])/\1/')"
  $NICE go build -trimpath -ldflags="-s -w -X github.com/prometheus/common/version.Version=$pv" -o "$out/" \
    "$p/cmd/prometheus" "$p/cmd/promtool"
  "$out/promtool" --version >&2
  cd - >/dev/null
  finish "$STINT_PROMETHEUS_BIN" "$p $v"
}

CURRENT=""
trap '[ -n "$CURRENT" ] && echo "testbin: ERROR: building $CURRENT failed (see the go output above); pin another version with the STINT_*_VERSION variables" >&2' ERR
t0=$SECONDS
wanted etcd && ! etcd_done && { CURRENT="go.etcd.io/etcd/server/v3@$STINT_ETCD_VERSION"; build_etcd; }
wanted kwok && ! kwok_done && { CURRENT="sigs.k8s.io/kwok@$STINT_KWOK_VERSION"; build_kwok; }
wanted kube && ! kube_done && { CURRENT="k8s.io/kubernetes@$STINT_KUBE_VERSION"; build_kube; }
wanted kueue && ! kueue_done && { CURRENT="sigs.k8s.io/kueue@$STINT_KUEUE_VERSION"; build_kueue; }
# after the cluster's: a failure here leaves every binary the cluster needs built
wanted helm && ! helm_done && { CURRENT="helm.sh/helm/v4@$STINT_HELM_VERSION"; build_helm; }
wanted prometheus && ! prometheus_done && { CURRENT="github.com/prometheus/prometheus@$STINT_PROMETHEUS_VERSION"; build_prometheus; }
CURRENT=""
log "done in $((SECONDS - t0)) s"
print_paths
