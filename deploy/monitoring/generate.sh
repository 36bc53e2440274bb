#!/usr/bin/env bash
# Writes the two copies of stint-rules.yaml's groups: prometheus-rule.yaml (a PrometheusRule, for the Prometheus
# Operator) and charts/stint/files/stint-rules.yaml (the chart's PrometheusRule; Helm reads files inside the chart
# only). Edit stint-rules.yaml, then run this; MonitoringFilesTest fails while a copy differs.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$HERE/../.."
{ cat <<'HEAD'
# Stint's alerts as a PrometheusRule of the Prometheus Operator: its spec is stint-rules.yaml beside it, unchanged
# (written by generate.sh; MonitoringFilesTest keeps them equal). Apply it in the namespace your Prometheus reads
# rules from, with the labels its ruleSelector asks for; the chart makes it with metrics.prometheusRule.enabled.
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: stint
  namespace: stint-system
  labels:
    app.kubernetes.io/name: stint
    app.kubernetes.io/part-of: stint
spec:
HEAD
  sed -n '/^groups:/,$p' "$HERE/stint-rules.yaml" | sed 's/^/  /'
} > "$HERE/prometheus-rule.yaml"
mkdir -p "$ROOT/charts/stint/files"
cp "$HERE/stint-rules.yaml" "$ROOT/charts/stint/files/stint-rules.yaml"
