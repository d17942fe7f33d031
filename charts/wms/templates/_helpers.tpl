{{/*
Names. Resources are <fullname>-<service>[-worker|-migrate]; fullname is cut to 40 characters so that the longest
suffix still fits a DNS label (63).
*/}}
{{- define "wms.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The selector labels of one component (a service, or a dev dependency) and role: (dict "root" $ "component" "messaging" "role" "server"). */}}
{{- define "wms.selectorLabels" -}}
app.kubernetes.io/name: {{ default .root.Chart.Name .root.Values.nameOverride }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- with .role }}
wms/role: {{ . }}
{{- end }}
{{- end -}}

{{/* Every label of a resource: its selector labels plus the chart's. */}}
{{- define "wms.labels" -}}
{{ include "wms.selectorLabels" . }}
app.kubernetes.io/part-of: wms
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{/* The image of a package: <registry>/wms-<name>:<tag>. */}}
{{- define "wms.image" -}}
{{- $image := .root.Values.global.image -}}
{{- with $image.registry }}{{ trimSuffix "/" . }}/{{ end }}wms-{{ .name }}:{{ $image.tag | default .root.Chart.AppVersion }}
{{- end -}}

{{/* A setting the chart cannot run without: (list $value "global.publicUrl" "what it is"). */}}
{{- define "wms.required" -}}
{{- $value := index . 0 -}}
{{- required (printf "%s is required: %s (see the chart's README)" (index . 1) (index . 2)) $value -}}
{{- end -}}

{{/* An env value as text: YAML numbers reach templates as floats, which would print as 2.592e+06. */}}
{{- define "wms.envText" -}}
{{- if kindIs "float64" . -}}{{ int64 . }}{{- else -}}{{ . }}{{- end -}}
{{- end -}}

{{/* One environment variable from a key of an existing Secret: (list "NAME" $secretName $key "what the Secret is"). */}}
{{- define "wms.secretEnv" -}}
- name: {{ index . 0 }}
  valueFrom:
    secretKeyRef:
      name: {{ include "wms.required" (list (index . 1) (index . 3) "the name of an existing Secret") }}
      key: {{ index . 2 }}
{{- end -}}

{{/*
Settings of a service with the defaults filled in, as JSON: (dict "root" $ "name" "messaging").
A key the service sets wins, false and 0 included (Helm's merge would treat those as unset).
*/}}
{{- define "wms.service" -}}
{{- $root := .root -}}
{{- $svc := index $root.Values.services .name -}}
{{- $defaults := $root.Values.defaults -}}
{{- $out := deepCopy $svc -}}
{{- $_ := set $out "name" .name -}}
{{- $_ := set $out "gateway" (eq .name "gateway") -}}
{{- if not (hasKey $svc "replicas") }}{{ $_ := set $out "replicas" $defaults.replicas }}{{ end -}}
{{- if not (hasKey $svc "resources") }}{{ $_ := set $out "resources" $defaults.resources }}{{ end -}}
{{- range $section := list "hpa" "pdb" -}}
{{- $merged := deepCopy (index $defaults $section) -}}
{{- range $key, $value := (index $svc $section | default dict) }}{{ $_ := set $merged $key $value }}{{ end -}}
{{- $_ := set $out $section $merged -}}
{{- end -}}
{{- $worker := dict "enabled" false -}}
{{- with $svc.worker -}}
{{- $worker = deepCopy . -}}
{{- if not (hasKey . "replicas") }}{{ $_ := set $worker "replicas" $defaults.replicas }}{{ end -}}
{{- if not (hasKey . "resources") }}{{ $_ := set $worker "resources" $defaults.resources }}{{ end -}}
{{- end -}}
{{- $_ := set $out "worker" $worker -}}
{{- toJson $out -}}
{{- end -}}

{{/*
The environment of one process: (dict "root" $ "service" <wms.service> "role" "server|worker|migrate").
Exactly what its config.ts reads and the chart knows: ports and ROLE, the global settings listed in `uses`, the
peers' addresses, the service's own `env`. A migration reads only its database.
*/}}
{{- define "wms.env" -}}
{{- $root := .root -}}
{{- $g := $root.Values.global -}}
{{- $s := .service -}}
{{- $fullname := include "wms.fullname" $root -}}
{{- if $s.gateway }}
- name: PORT
  value: {{ int $s.port | quote }}
{{- else }}
- name: ROLE
  value: {{ .role }}
{{- if ne .role "migrate" }}
- name: GRPC_PORT
  value: {{ int $s.grpcPort | quote }}
- name: METRICS_PORT
  value: {{ int $s.metricsPort | quote }}
{{- end }}
{{- end }}
- name: LOG_LEVEL
  value: {{ $g.logLevel }}
{{- if eq .role "migrate" }}
{{ include "wms.secretEnv" (list "DATABASE_URL" $g.database.existingSecret $g.database.secretKeys.url "global.database.existingSecret") }}
{{- else }}
{{- range $use := $s.uses }}
{{- if eq $use "database" }}
{{ include "wms.secretEnv" (list "DATABASE_URL" $g.database.existingSecret $g.database.secretKeys.url "global.database.existingSecret") }}
{{- else if eq $use "redis" }}
{{ include "wms.secretEnv" (list "REDIS_URL" $g.redis.existingSecret $g.redis.secretKeys.url "global.redis.existingSecret") }}
- name: REDIS_PREFIX
  value: {{ $g.redis.prefix | quote }}
{{- with $g.redis.clusterNodes }}
- name: REDIS_CLUSTER_NODES
  value: {{ join "," . | quote }}
{{- end }}
{{- else if eq $use "storage" }}
- name: STORAGE_DRIVER
  value: s3
- name: S3_ENDPOINT
  value: {{ include "wms.required" (list $g.storage.endpoint "global.storage.endpoint" "the S3 or MinIO URL") | quote }}
- name: S3_REGION
  value: {{ $g.storage.region | quote }}
- name: S3_BUCKET
  value: {{ $g.storage.bucket | quote }}
{{- with $g.storage.publicUrl }}
- name: S3_PUBLIC_URL
  value: {{ . | quote }}
{{- end }}
{{ include "wms.secretEnv" (list "S3_ACCESS_KEY" $g.storage.existingSecret $g.storage.secretKeys.accessKey "global.storage.existingSecret") }}
{{ include "wms.secretEnv" (list "S3_SECRET_KEY" $g.storage.existingSecret $g.storage.secretKeys.secretKey "global.storage.existingSecret") }}
{{- else if eq $use "publicUrl" }}
- name: PUBLIC_URL
  value: {{ include "wms.required" (list $g.publicUrl "global.publicUrl" "the gateway's public URL") | quote }}
{{- else if eq $use "mail" }}
{{ include "wms.secretEnv" (list "SMTP_URL" $g.mail.existingSecret $g.mail.secretKeys.url "global.mail.existingSecret") }}
- name: MAIL_FROM
  value: {{ include "wms.required" (list $g.mail.from "global.mail.from" "the sender of every mail") | quote }}
{{- else if eq $use "jwtPrivateKey" }}
{{ include "wms.secretEnv" (list "JWT_PRIVATE_KEY" $g.jwt.existingSecret $g.jwt.secretKeys.privateKey "global.jwt.existingSecret") }}
{{- else if eq $use "jwtPublicKey" }}
{{ include "wms.secretEnv" (list "JWT_PUBLIC_KEY" $g.jwt.existingSecret $g.jwt.secretKeys.publicKey "global.jwt.existingSecret") }}
{{- else if eq $use "realtimeProvider" }}
- name: PUSHER_APP_ID
  value: {{ include "wms.required" (list $g.realtime.appId "global.realtime.appId" "the provider app's ID") | quote }}
- name: PUSHER_KEY
  value: {{ include "wms.required" (list $g.realtime.key "global.realtime.key" "the provider app's key") | quote }}
{{ include "wms.secretEnv" (list "PUSHER_SECRET" $g.realtime.existingSecret $g.realtime.secretKeys.secret "global.realtime.existingSecret") }}
- name: PUSHER_CLUSTER
  value: {{ $g.realtime.cluster | quote }}
{{- end }}
{{- if and (has $use (list "realtimeProvider" "realtimeProxy")) $g.realtime.host }}
- name: PUSHER_HOST
  value: {{ $g.realtime.host | quote }}
- name: PUSHER_PORT
  value: {{ int $g.realtime.port | quote }}
- name: PUSHER_USE_TLS
  value: {{ $g.realtime.useTls | quote }}
{{- end }}
{{- end }}
{{- range $peer := $s.peers }}
{{- $peerValues := required (printf "services.%s.peers: there is no service %s" $s.name $peer) (index $root.Values.services $peer) }}
- name: {{ upper $peer }}_GRPC_URL
  value: {{ printf "dns:///%s-%s-headless.%s.svc:%d" $fullname $peer $root.Release.Namespace (int $peerValues.grpcPort) | quote }}
{{- end }}
{{- range $name, $value := $s.env }}
- name: {{ $name }}
  value: {{ include "wms.envText" $value | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* The pod-level parts every wms pod shares: (dict "root" $). */}}
{{- define "wms.podSpecCommon" -}}
{{- $g := .root.Values.global -}}
# No workload talks to the Kubernetes API.
automountServiceAccountToken: false
securityContext:
  {{- toYaml .root.Values.defaults.podSecurityContext | nindent 2 }}
{{- with $g.image.pullSecrets }}
imagePullSecrets:
  {{- range . }}
  - name: {{ . }}
  {{- end }}
{{- end }}
{{- end -}}

{{/* The container-level security context and the writable /tmp every wms container gets. */}}
{{- define "wms.containerSecurity" -}}
securityContext:
  {{- toYaml .root.Values.defaults.containerSecurityContext | nindent 2 }}
volumeMounts:
  - name: tmp
    mountPath: /tmp
{{- end -}}
