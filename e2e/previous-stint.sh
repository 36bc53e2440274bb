#!/usr/bin/env bash
# Builds (once) the operator jar of the previous version of Stint named in e2e/previous-version, and prints its path.
# UpgradeIT upgrades from that jar to this checkout's and rolls back to it; the Maven build runs this script before
# the ITs (e2e/pom.xml, pre-integration-test), and the test runs it again to learn the path (then it costs nothing).
#
# The commit's tree is exported with `git archive` to $STINT_PREVIOUS_DIR/<commit>/ (default
# ~/.cache/stint/previous/<commit>/) and built there with `mvn -B -q package -DskipTests -pl operator -am`: offline
# first (the build of this checkout has just filled ~/.m2), online if that fails. Nothing is installed into ~/.m2.
# A finished build leaves a .stamp; with it present the script only prints the path. The checkout must hold the
# commit (a full clone does; a shallow one fails here with a message saying so).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
die() { echo "previous-stint: ERROR: $*" >&2; exit 1; }
log() { echo "previous-stint: $*" >&2; }

ref="$(sed -n '1{s/[[:space:]]//g;p;q}' "$HERE/previous-version")"
[ -n "$ref" ] || die "e2e/previous-version names no commit on its first line"
commit="$(git -C "$ROOT" rev-parse --verify --quiet "$ref^{commit}")" \
  || die "commit $ref (e2e/previous-version) is not in this checkout's history; UpgradeIT needs it: fetch the full" \
         "history (git fetch --unshallow, or a clone without --depth)"
short="$(git -C "$ROOT" rev-parse --short=7 "$commit")"
base="${STINT_PREVIOUS_DIR:-$HOME/.cache/stint/previous}"
dir="$base/$short"
jar="$dir/operator/target/stint-operator.jar"
if [ -f "$dir/.stamp" ] && [ -f "$jar" ]; then
  echo "$jar"
  exit 0
fi

# exported beside its final place and moved there whole, so that two builds at once (two checkouts) never mix
mkdir -p "$base"
work="$(mktemp -d "$base/.$short.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log "building Stint at $short (e2e/previous-version) in $dir"
git -C "$ROOT" archive --format=tar "$commit" | tar -x -C "$work"
build() { (cd "$work" && mvn -B -q "$@" package -DskipTests -pl operator -am); }
if ! build -o >"$work/.build-offline.log" 2>&1; then
  log "the offline build failed (tail of its log below); trying online"
  tail -n 20 "$work/.build-offline.log" >&2
  build >"$work/.build.log" 2>&1 || { tail -n 60 "$work/.build.log" >&2; die "the build of $short failed"; }
fi
[ -f "$work/operator/target/stint-operator.jar" ] || die "the build of $short made no operator/target/stint-operator.jar"
echo "$commit" >"$work/.stamp"
if [ -f "$dir/.stamp" ]; then
  log "another build finished first; keeping it"
else
  rm -rf "$dir"
  mv "$work" "$dir"
fi
echo "$jar"
