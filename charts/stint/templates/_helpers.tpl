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

{{/* The operator's ServiceAccount: serviceAccount.name, else the objects' name; created unless serviceAccount.create is false. */}}
{{- define "stint.serviceAccountName" -}}
{{- default (include "stint.fullname" .) .Values.serviceAccount.name -}}
{{- end -}}

{{/* The operator's image: repository@digest when image.digest is set (the tag is then ignored), else repository:tag. */}}
{{- define "stint.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{/*
A memory size in MiB, rounded up: the heap as -Xmx reads it (384m, 1g, 524288k, or bytes), or a Kubernetes quantity
(768Mi, 1Gi, 1.5Gi, 800M, 805306368). The argument is a list: the value and the name of the value it came from, for
the message when it cannot be read.
*/}}
{{- define "stint.mebibytes" -}}
{{- $value := toString (index . 0) -}}
{{- $name := index . 1 -}}
{{- $m := regexFindAll "^([0-9]+(?:\\.[0-9]+)?)(Ki|Mi|Gi|Ti|k|K|m|M|g|G|T)?$" $value 1 -}}
{{- if not $m -}}
{{- fail (printf "%s: cannot read %q as a memory size (write it as 768Mi, 1Gi or 1.5Gi)" $name $value) -}}
{{- end -}}
{{- $number := float64 (regexReplaceAll "[A-Za-z]+$" $value "") -}}
{{- $unit := regexReplaceAll "^[0-9.]+" $value "" -}}
{{- $bytes := dict "" 1.0 "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0 "k" 1000.0 "K" 1000.0 "M" 1000000.0 "G" 1000000000.0 "T" 1000000000000.0 -}}
{{- if eq $name "heap" -}}
{{- /* the JVM's suffixes are binary, in either case */ -}}
{{- $bytes = dict "" 1.0 "k" 1024.0 "K" 1024.0 "m" 1048576.0 "M" 1048576.0 "g" 1073741824.0 "G" 1073741824.0 -}}
{{- end -}}
{{- if not (hasKey $bytes $unit) -}}
{{- fail (printf "%s: cannot read %q as a memory size (write it as 768Mi, 1Gi or 1.5Gi)" $name $value) -}}
{{- end -}}
{{- ceil (divf (mulf $number (get $bytes $unit)) 1048576.0) | int -}}
{{- end -}}

{{/*
resources, with the memory limit derived from the heap when it is not set (heap + 384Mi: metaspace, code cache,
thread stacks, GC and native buffers, as deploy/base/deployment.yaml counts them), and refused when it is set below
that or below the memory request.
*/}}
{{- define "stint.resources" -}}
{{- $resources := deepCopy (.Values.resources | default dict) -}}
{{- $limits := get $resources "limits" | default dict -}}
{{- $needed := add (include "stint.mebibytes" (list .Values.heap "heap") | int) 384 -}}
{{- if empty (get $limits "memory") -}}
{{- $_ := set $limits "memory" (printf "%dMi" $needed) -}}
{{- else if lt (include "stint.mebibytes" (list $limits.memory "resources.limits.memory") | int) $needed -}}
{{- fail (printf "resources.limits.memory %v is below heap %v + 384Mi = %dMi (the JVM needs about 200 MiB outside its heap): raise the limit, or leave it unset to derive it from the heap" $limits.memory .Values.heap $needed) -}}
{{- end -}}
{{- $_ := set $resources "limits" $limits -}}
{{- $requests := get $resources "requests" | default dict -}}
{{- if and (get $requests "memory") (gt (include "stint.mebibytes" (list $requests.memory "resources.requests.memory") | int) (include "stint.mebibytes" (list $limits.memory "resources.limits.memory") | int)) -}}
{{- fail (printf "resources.requests.memory %v is above the memory limit %v (heap + 384Mi when resources.limits.memory is unset): the API server would refuse the pod; lower the request or raise the limit" $requests.memory $limits.memory) -}}
{{- end -}}
{{- toYaml $resources -}}
{{- end -}}
