{{/*
The objects' name: the release's when it already says stint (`helm install stint ...`), else <release>-stint; or
fullnameOverride. The ClusterRole and its bindings are cluster-wide, so two releases must not share a name.
*/}}
{{- define "stint.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "stint.selectorLabels" -}}
app.kubernetes.io/name: stint
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: operator
{{- end -}}

{{- define "stint.labels" -}}
app.kubernetes.io/name: stint
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/part-of: stint
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Whether a built-in framework runs: every one does when .Values.frameworks is empty (no --frameworks). */}}
{{- define "stint.runs" -}}
{{- if or (empty .root.Values.frameworks) (has .name .root.Values.frameworks) -}}true{{- end -}}
{{- end -}}

{{/*
The plurals of the kubeflow.org kinds served, as a YAML list: the built-in frameworks that run (pytorch: pytorchjobs,
tensorflow: tfjobs, mpi: mpijobs), then the plugin kinds of group kubeflow.org, in the order of deploy/'s rules.
*/}}
{{- define "stint.kubeflowPlurals" -}}
{{- $plurals := list -}}
{{- range $pair := list (list "pytorch" "pytorchjobs") (list "tensorflow" "tfjobs") (list "mpi" "mpijobs") -}}
{{- if include "stint.runs" (dict "root" $ "name" (index $pair 0)) -}}
{{- $plurals = append $plurals (index $pair 1) -}}
{{- end -}}
{{- end -}}
{{- range .Values.plugins.kinds -}}
{{- if eq (default "kubeflow.org" .group) "kubeflow.org" -}}
{{- $plurals = append $plurals .plural -}}
{{- end -}}
{{- end -}}
{{- toYaml $plurals -}}
{{- end -}}

{{/* The rules on one group's job kinds: read and delete them, patch their status, update their finalizers. */}}
{{- define "stint.jobRules" -}}
{{- $group := .group -}}
{{- $plurals := .plurals -}}
# list, watch: the informers of the served kinds (and, with Kueue, a list by name that confirms a Workload's job is
# gone); delete: ttlSecondsAfterFinished. No get: the status is applied without reading the job first
- apiGroups: [{{ $group }}]
  resources: [{{ join ", " $plurals }}]
  verbs: [list, watch, delete]
# status is written by server-side apply on the status subresource only
- apiGroups: [{{ $group }}]
  resources: [{{ range $i, $p := $plurals }}{{ if $i }}, {{ end }}{{ $p }}/status{{ end }}]
  verbs: [patch]
# every child names its job as owner with blockOwnerDeletion; where OwnerReferencesPermissionEnforcement is on
# (OpenShift), that needs update on the owner's finalizers, or creating the child is forbidden
- apiGroups: [{{ $group }}]
  resources: [{{ range $i, $p := $plurals }}{{ if $i }}, {{ end }}{{ $p }}/finalizers{{ end }}]
  verbs: [update]
{{- end -}}

{{/* kueue.mode as a word: an unquoted `off` in a values file is YAML's false, and means off */}}
{{- define "stint.kueueMode" -}}
{{- $mode := toString .Values.kueue.mode -}}
{{- if eq $mode "false" -}}off{{- else -}}{{ $mode }}{{- end -}}
{{- end }}
