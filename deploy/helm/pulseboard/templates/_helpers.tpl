{{/* The five services: values key, entry point, port and its variables, the Secret keys each reads. */}}
{{- define "pulseboard.services" -}}
gateway:
  key: gateway
  migrates: true
  main: services/gateway/dist/main.js
  port: 8080
  portEnv: GATEWAY_PORT
  hostEnv: GATEWAY_HOST
  secrets: [DATABASE_URL, REDIS_URL, ADMIN_TOKEN, SECRETS_KEY, INTERNAL_PROXY_SECRET]
  optionalSecrets: [REDIS_CLUSTER_NODES, SECRETS_KEY_PREVIOUS]
  public: true
broadcast:
  key: broadcast
  main: services/broadcast/dist/main.js
  port: 8081
  portEnv: BROADCAST_PORT
  hostEnv: BROADCAST_HOST
  secrets: [DATABASE_URL, INTERNAL_PROXY_SECRET]
  optionalSecrets: []
  public: true
store:
  key: store
  migrates: true
  main: services/store/dist/main.js
  port: 9102
  portEnv: STORE_HTTP_PORT
  hostEnv: STORE_HTTP_HOST
  secrets: [DATABASE_URL]
  optionalSecrets: []
  groupEnv: STORE_GROUP_ID
  group: pulseboard-store
  topicEnv: TOPIC_EVENTS
  topic: pulseboard.events.v1
rule-engine:
  key: ruleEngine
  migrates: true
  main: services/rule-engine/dist/main.js
  port: 9103
  portEnv: RULE_ENGINE_HTTP_PORT
  hostEnv: RULE_ENGINE_HTTP_HOST
  secrets: [DATABASE_URL]
  optionalSecrets: []
  groupEnv: RULE_ENGINE_GROUP_ID
  group: pulseboard-rule-engine
  topicEnv: TOPIC_EVENTS
  topic: pulseboard.events.v1
notification:
  key: notification
  migrates: true
  main: services/notification/dist/main.js
  port: 9104
  portEnv: NOTIFICATION_HTTP_PORT
  hostEnv: NOTIFICATION_HTTP_HOST
  secrets: [DATABASE_URL, SECRETS_KEY]
  optionalSecrets: [SECRETS_KEY_PREVIOUS, SMTP_URL]
  groupEnv: NOTIFICATION_GROUP_ID
  group: pulseboard-notification
  topicEnv: TOPIC_TILE_CHANGES
  topic: pulseboard.tile-changes.v1
{{- end -}}

{{- define "pulseboard.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}{{ .Release.Name | trunc 50 | trimSuffix "-" }}{{- else -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{- define "pulseboard.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector labels of one service: (dict "root" $ "name" "gateway") */}}
{{- define "pulseboard.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "pulseboard.image" -}}
{{- $tag := .Values.image.tag | default .Chart.AppVersion -}}
{{- if eq (toString $tag) "latest" }}{{ fail "image.tag must name a release, never latest" }}{{ end -}}
{{ printf "%s:%s" .Values.image.repository $tag }}
{{- end -}}

{{- define "pulseboard.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "pulseboard.fullname" .)) -}}
{{- end -}}

{{/* The group a consumer runs in: its env value when set, else the service's default. */}}
{{- define "pulseboard.group" -}}
{{- $values := index .root.Values .svc.key -}}
{{- index ($values.env | default dict) .svc.groupEnv | default (index (.root.Values.config | default dict) .svc.groupEnv) | default .svc.group -}}
{{- end -}}

{{- define "pulseboard.topic" -}}
{{- $values := index .root.Values .svc.key -}}
{{- index ($values.env | default dict) .svc.topicEnv | default (index (.root.Values.config | default dict) .svc.topicEnv) | default .svc.topic -}}
{{- end -}}

{{/* The ServiceAccount of the services: the chart's own, or the one named (empty: the namespace's default). */}}
{{- define "pulseboard.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}{{ .Values.serviceAccount.name | default (include "pulseboard.fullname" .) }}{{- else -}}{{ .Values.serviceAccount.name | default "default" }}{{- end -}}
{{- end -}}

{{/* The migrations hook Job's account: made as a hook itself, since the release's own objects do not exist yet when it runs. */}}
{{- define "pulseboard.migrateServiceAccountName" -}}
{{- if .Values.serviceAccount.create -}}{{ printf "%s-migrate" (include "pulseboard.serviceAccountName" .) | trunc 63 | trimSuffix "-" }}{{- else -}}{{ include "pulseboard.serviceAccountName" . }}{{- end -}}
{{- end -}}

{{/* A pod's labels: podLabels, under the selector labels of (dict "root" $ "name" "gateway"), which win. */}}
{{- define "pulseboard.podLabels" -}}
{{- toYaml (merge (include "pulseboard.selector" . | fromYaml) (deepCopy (.root.Values.podLabels | default dict))) }}
{{- end -}}

{{/* nodeSelector, tolerations and affinity of every pod. */}}
{{- define "pulseboard.scheduling" -}}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
