# shellcheck shell=bash
# Sourced by the bench scripts that run a Go tool of bench/ (apicost, crdcost).
#   go_tool <name>   prints the path of bench/<name> built into $STINT_TESTBIN_DIR/<name>-<hash of its sources>/,
#                    building it first when missing (e2e/versions.sh must be sourced before)
go_tool() {
  local name="$1" src hash bin
  src="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$name"
  hash="$(cat "$src/go.mod" "$src/go.sum" "$src/main.go" | sha256sum | cut -c1-12)"
  bin="$STINT_TESTBIN_DIR/$name-$hash/$name"
  if [ ! -x "$bin" ]; then
    echo "$name: building $bin" >&2
    mkdir -p "$(dirname "$bin")"
    (cd "$src" && GOTOOLCHAIN="${GOTOOLCHAIN:-local}" CGO_ENABLED=0 GOFLAGS="-mod=mod -buildvcs=false" \
      go build -trimpath -o "$bin.tmp" . && mv "$bin.tmp" "$bin") >&2
  fi
  echo "$bin"
}
