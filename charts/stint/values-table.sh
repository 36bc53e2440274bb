#!/usr/bin/env bash
# Writes README.md's values table from values.schema.json (each value's type and description) and values.yaml (its
# default): edit those two, then run this. e2e ChartValuesTableTest fails while the README differs. Needs the reactor's
# other modules in ~/.m2 (as every single-module build of e2e does).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
mvn -B -q -pl e2e test -Dtest=ChartValuesTableTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dstint.writeValuesTable=true "$@"
