{{/* The chart's name. */}}
{{- define "gatehouse.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The release's objects' name: the release name, with the chart's unless it contains it. */}}
{{- define "gatehouse.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Selector labels: stable across upgrades. */}}
{{- define "gatehouse.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gatehouse.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/*
Labels of every object. app.kubernetes.io/part-of=gatehouse is what the server's System Status
screen selects its pods and StatefulSets by (GATEHOUSE_KUBERNETES_SELECTOR, ADR 0004).
*/}}
{{- define "gatehouse.labels" -}}
{{ include "gatehouse.selectorLabels" . }}
app.kubernetes.io/part-of: gatehouse
app.kubernetes.io/component: server
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "gatehouse.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "gatehouse.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "gatehouse.imageTag" -}}
{{- default .Chart.AppVersion .Values.image.tag -}}
{{- end -}}

{{/* Several instances share everything through PostgreSQL, Redis, object storage and the keys. */}}
{{- define "gatehouse.checkValues" -}}
{{- if gt (int .Values.replicaCount) 1 -}}
{{- if not .Values.database.existingSecret -}}
{{- fail "replicaCount > 1 needs PostgreSQL: set database.existingSecret (the embedded database serves one instance)" -}}
{{- end -}}
{{- if not .Values.redis.existingSecret -}}
{{- fail "replicaCount > 1 needs Redis: set redis.existingSecret (console events across instances)" -}}
{{- end -}}
{{- if not .Values.objectStorage.bucket -}}
{{- fail "replicaCount > 1 needs object storage: set objectStorage.bucket (recordings replayed from any instance)" -}}
{{- end -}}
{{- if not .Values.secretKey.existingSecret -}}
{{- fail "replicaCount > 1 needs one secret key for all instances: set secretKey.existingSecret" -}}
{{- end -}}
{{- end -}}
{{- if le (int .Values.server.terminationExtraSeconds) 15 -}}
{{- fail "server.terminationExtraSeconds must exceed 15: the server takes up to 15 s after the drain to finish recordings and exit" -}}
{{- end -}}
{{- if and .Values.objectStorage.bucket (not .Values.objectStorage.existingSecret) -}}
{{- fail "objectStorage.bucket needs objectStorage.existingSecret (the access key id and secret access key)" -}}
{{- end -}}
{{- end -}}
