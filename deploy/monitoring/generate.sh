#!/usr/bin/env bash
# Writes prometheus-rule.yaml (a PrometheusRule, for the Prometheus Operator) from stint-rules.yaml's groups. Edit
# stint-rules.yaml, then run this; MonitoringFilesTest fails while they differ. (The chart reads stint-rules.yaml
# through its symbolic link charts/stint/files/stint-rules.yaml: Helm follows links out of the chart.)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
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
