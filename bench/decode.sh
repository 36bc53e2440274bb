#!/usr/bin/env bash
# What decoding one watch event of a pod costs the operator's client, against fabric8's own serialization: CPU (µs)
# and bytes allocated per event, with the operator's JVM flags (C1, serial GC). docs/benchmarks.md, "Decoding watch
# events". Needs `mvn -B install -DskipTests` (or test-compile of kube-client) first.
#
#   bench/decode.sh [events per round, default 20000]
set -euo pipefail
cd "$(dirname "$0")/.."
cp=kube-client/target/decode.classpath
[ -f "$cp" ] || mvn -B -q -pl kube-client dependency:build-classpath -Dmdep.outputFile="$PWD/$cp" >/dev/null
[ -d kube-client/target/test-classes ] || mvn -B -q -pl kube-client test-compile >/dev/null
exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx256m \
  -cp "kube-client/target/test-classes:kube-client/target/classes:$(cat "$cp")" dev.stint.kubeclient.WatchDecodeCost "$@"
