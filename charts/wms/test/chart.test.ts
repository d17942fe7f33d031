import { execFile } from 'node:child_process';
import { createPublicKey, createPrivateKey, sign, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { type IJob, Job } from 'kubernetes-models/batch/v1';
import { type IIngress, type INetworkPolicy, Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { type IPodDisruptionBudget, PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { type IContainer, type IPodTemplateSpec, type IService, Service } from 'kubernetes-models/v1';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { grpcUrlVariable, type ServiceName, serviceNames, topology } from '../../../protos/src/topology.ts';
import { LIVENESS_SERVICE } from '../../../services/kit/src/health.ts';
import { storageConfigFrom, type StorageEnv } from '../../../services/kit/src/storage.ts';
import { configSchemas as schemasOfProcesses } from '../../../test/support/config-schemas.ts';
import { helm } from './helm.ts';

const chartDir = fileURLToPath(new URL('..', import.meta.url));
const profiles = ['minimal', 'production', 'tilt'] as const;
type Profile = (typeof profiles)[number];
/** A release name without "wms" in it, so resources are <release>-wms-<service> (tilt overrides the name to "wms"). */
const RELEASE = 'chat';
const fullnameOf = (profile: Profile) => (profile === 'tilt' ? 'wms' : `${RELEASE}-wms`);

type Component = 'gateway' | ServiceName;
const components: Component[] = ['gateway', ...serviceNames];
/** What the gateway calls: every service (its config reads every `<SERVICE>_GRPC_URL`). */
const peersOf = (c: Component): readonly ServiceName[] => (c === 'gateway' ? serviceNames : topology[c].peers);

/** The part of a zod object schema this test uses: its keys, and parsing. */
interface ConfigSchema {
  shape: Record<string, { safeParse(value: unknown): { success: boolean } }>;
  safeParse(
    env: Record<string, string>,
  ):
    | { success: true; data: unknown }
    | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}
const configSchemas: Record<Component, ConfigSchema> = schemasOfProcesses;

/** Settings the chart has: every process whose config reads one must get it, never run on a localhost default. */
const MUST_REACH = new Set([
  'PORT',
  'ROLE',
  'GRPC_PORT',
  'METRICS_PORT',
  'LOG_LEVEL',
  'DATABASE_URL',
  'REDIS_URL',
  'REDIS_PREFIX',
  'PUBLIC_URL',
  'STORAGE_DRIVER',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_BUCKET',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
  'SMTP_URL',
  'MAIL_FROM',
  'JWT_PRIVATE_KEY',
  'JWT_PUBLIC_KEY',
  'PUSHER_APP_ID',
  'PUSHER_KEY',
  'PUSHER_SECRET',
  'PUSHER_CLUSTER',
  ...serviceNames.map(grpcUrlVariable),
]);
/** Settings the chart sets itself: a service's `env` block must not name them. */
const CHART_MANAGED = new Set([
  ...MUST_REACH,
  'REDIS_CLUSTER_NODES',
  'PUSHER_HOST',
  'PUSHER_PORT',
  'PUSHER_USE_TLS',
  'S3_PUBLIC_URL',
  'GRPC_HOST',
  'DATABASE_SCHEMA',
]);

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: unknown;
}
/** The Prometheus Operator's ServiceMonitor, the one kind kubernetes-models has no model of. */
interface ServiceMonitor extends Manifest {
  spec: {
    selector: { matchLabels: Record<string, string> };
    endpoints: Array<{ port: string; path: string; interval?: string }>;
  };
}

const models: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'v1/Service': Service,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
};

/** The fields of monitoring.coreos.com/v1 ServiceMonitor the chart uses, each with the CRD's type; nothing else. */
function expectServiceMonitorShape(monitor: ServiceMonitor, where: string): void {
  expect(monitor.apiVersion, where).toBe('monitoring.coreos.com/v1');
  expect(Object.keys(monitor.spec).sort(), where).toEqual(['endpoints', 'selector']);
  expect(Object.keys(monitor.spec.selector), where).toEqual(['matchLabels']);
  const labels = Object.values(monitor.spec.selector.matchLabels);
  expect(labels.length, where).toBeGreaterThan(0);
  for (const value of labels) expect(typeof value, where).toBe('string');
  expect(monitor.spec.endpoints.length, where).toBeGreaterThan(0);
  for (const endpoint of monitor.spec.endpoints) {
    expect(Object.keys(endpoint).sort(), where).toEqual(['interval', 'path', 'port']);
    expect(endpoint.port, where).toMatch(/^[a-z0-9-]{1,15}$/);
    expect(endpoint.path, where).toMatch(/^\//);
    // The CRD's Duration pattern.
    expect(endpoint.interval, where).toMatch(
      /^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$/,
    );
  }
}

class Rendered {
  constructor(
    readonly profile: Profile,
    readonly manifests: Manifest[],
  ) {}

  get fullname(): string {
    return fullnameOf(this.profile);
  }
  of<T>(kind: string): T[] {
    return this.manifests.filter((m) => m.kind === kind) as T[];
  }
  get deployments(): IDeployment[] {
    return this.of<IDeployment>('Deployment');
  }
  get services(): IService[] {
    return this.of<IService>('Service');
  }
  get jobs(): IJob[] {
    return this.of<IJob>('Job');
  }
  /** The Deployments of wms itself (not the dev dependencies), with their component and role. */
  get workloads(): Array<{
    component: Component;
    role: 'server' | 'worker';
    deployment: IDeployment;
    container: IContainer;
  }> {
    return this.deployments
      .filter((d) => d.metadata!.labels!['wms/role'] !== 'dev')
      .map((deployment) => ({
        component: deployment.metadata!.labels!['app.kubernetes.io/component'] as Component,
        role: deployment.metadata!.labels!['wms/role'] as 'server' | 'worker',
        deployment,
        container: deployment.spec!.template.spec!.containers[0]!,
      }));
  }
  /** Every container that runs a wms process: servers, workers and migrations. */
  get processes(): Array<{ component: Component; role: 'server' | 'worker' | 'migrate'; container: IContainer }> {
    const migrations = this.jobs.map((job) => ({
      component: job.metadata!.labels!['app.kubernetes.io/component'] as Component,
      role: 'migrate' as const,
      container: job.spec!.template.spec!.containers[0]!,
    }));
    return [...this.workloads, ...migrations];
  }
  /** Every pod template: Deployments (wms and dev dependencies) and Jobs. */
  get podTemplates(): Array<{ name: string; template: IPodTemplateSpec }> {
    return [...this.deployments, ...this.jobs].map((w) => ({
      name: `${w.kind}/${w.metadata!.name}`,
      template: w.spec!.template,
    }));
  }
  service(name: string): IService {
    const found = this.services.find((s) => s.metadata!.name === name);
    if (!found) throw new Error(`${this.profile}: no Service ${name}`);
    return found;
  }
  /** The Deployments whose pods a label selector picks. */
  selected(matchLabels: Record<string, string>): IDeployment[] {
    return this.deployments.filter((d) =>
      Object.entries(matchLabels).every(([k, v]) => d.spec!.template.metadata!.labels![k] === v),
    );
  }
}

const envOf = (container: IContainer) => new Map((container.env ?? []).map((e) => [e.name, e]));
const envValue = (container: IContainer, name: string): string | undefined => envOf(container).get(name)?.value;
const looksNumeric = (value: string) => /^\d+(\.\d+)?$/.test(value);

/** The container's environment as its process sees it; a value from a Secret becomes a placeholder valid for any setting. */
function processEnv(container: IContainer): Record<string, string> {
  return Object.fromEntries(
    (container.env ?? []).map((e) => {
      const ref = e.valueFrom?.secretKeyRef;
      return [e.name, ref ? `secret://${ref.name}/${ref.key}` : (e.value ?? '')];
    }),
  );
}

const rendered = {} as Record<Profile, Rendered>;
const lint = {} as Record<Profile, { code: number; stdout: string; stderr: string }>;

const template = (profile: Profile | undefined, ...extra: string[]) =>
  helm([
    'template',
    RELEASE,
    chartDir,
    '--namespace',
    'wms',
    ...(profile ? ['-f', path.join(chartDir, 'ci', `${profile}-values.yaml`)] : []),
    ...extra,
  ]);

beforeAll(async () => {
  // helm once per profile and command, all at once; every test below reads these results.
  await Promise.all(
    profiles.flatMap((profile) => [
      helm(['lint', '--strict', chartDir, '-f', path.join(chartDir, 'ci', `${profile}-values.yaml`)]).then((r) => {
        lint[profile] = r;
      }),
      template(profile).then((r) => {
        if (r.code !== 0) throw new Error(`helm template (${profile}) failed:\n${r.stderr}`);
        const manifests = parseAllDocuments(r.stdout)
          .map((doc) => doc.toJS() as Manifest | null)
          .filter((m): m is Manifest => m !== null);
        rendered[profile] = new Rendered(profile, manifests);
      }),
    ]),
  );
});

describe('charts/wms', () => {
  it.each(profiles)('passes helm lint --strict with the %s profile', (profile) => {
    expect(lint[profile].stderr).not.toMatch(/\[(ERROR|WARNING)\]/);
    expect(lint[profile].code, lint[profile].stdout + lint[profile].stderr).toBe(0);
  });

  it.each(profiles)('renders manifests that are valid Kubernetes objects (%s)', (profile) => {
    const { manifests } = rendered[profile];
    expect(manifests.length).toBeGreaterThan(20);
    for (const manifest of manifests) {
      const where = `${profile}: ${manifest.kind} ${manifest.metadata?.name}`;
      if (manifest.kind === 'ServiceMonitor') {
        expectServiceMonitorShape(manifest as ServiceMonitor, where);
        continue;
      }
      const Model = models[`${manifest.apiVersion}/${manifest.kind}`];
      expect(Model, `${where}: a kind this test has no model for`).toBeDefined();
      expect(() => new Model!(manifest as never).validate(), where).not.toThrow();
      expect(manifest.metadata.name.length, where).toBeLessThanOrEqual(63);
    }
    const names = manifests.map((m) => `${m.kind}/${m.metadata.name}`);
    expect(new Set(names).size, 'duplicate names').toBe(names.length);
  });

  describe('against the topology table', () => {
    it('has a values block, and a schema entry, for exactly the gateway and each service', () => {
      const values = parse(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) as {
        services: Record<string, unknown>;
      };
      const schema = JSON.parse(readFileSync(path.join(chartDir, 'values.schema.json'), 'utf8')) as JsonSchema;
      expect(Object.keys(values.services).sort()).toEqual([...components].sort());
      expect(Object.keys(schema.properties!.services!.properties!).sort()).toEqual([...components].sort());
    });

    it.each(profiles)(
      'runs a server per service, a worker where it has the worker role, a migration where it has migrations (%s)',
      (profile) => {
        const r = rendered[profile];
        const servers = r.workloads.filter((w) => w.role === 'server').map((w) => w.component);
        const workers = r.workloads.filter((w) => w.role === 'worker').map((w) => w.component);
        const migrations = r.jobs.map((j) => j.metadata!.labels!['app.kubernetes.io/component']);
        expect(servers.sort()).toEqual([...components].sort());
        expect(workers.sort()).toEqual(
          serviceNames.filter((n) => (topology[n].roles as readonly string[]).includes('worker')).sort(),
        );
        expect(migrations.sort()).toEqual(
          serviceNames.filter((n) => (topology[n].roles as readonly string[]).includes('migrate')).sort(),
        );
        for (const { component, role, container } of r.processes) {
          if (component !== 'gateway') expect(envValue(container, 'ROLE'), `${component} ${role}`).toBe(role);
        }
      },
    );

    it.each(profiles)("listens, probes and is reached on the table's ports (%s)", (profile) => {
      const r = rendered[profile];
      for (const { component, role, container } of r.workloads) {
        const where = `${component} ${role}`;
        const ports = Object.fromEntries((container.ports ?? []).map((p) => [p.name, p.containerPort]));
        if (component === 'gateway') {
          expect(ports, where).toEqual({ http: 8080 });
          expect(envValue(container, 'PORT'), where).toBe('8080');
          expect(container.livenessProbe?.httpGet, where).toMatchObject({ path: '/healthz', port: 'http' });
          expect(container.readinessProbe?.httpGet, where).toMatchObject({ path: '/readyz', port: 'http' });
          continue;
        }
        const row = topology[component];
        expect(ports, where).toEqual({ grpc: row.grpcPort, metrics: row.metricsPort });
        expect(envValue(container, 'GRPC_PORT'), where).toBe(String(row.grpcPort));
        expect(envValue(container, 'METRICS_PORT'), where).toBe(String(row.metricsPort));
        expect(container.livenessProbe?.grpc, where).toEqual({ port: row.grpcPort, service: LIVENESS_SERVICE });
        expect(container.readinessProbe?.grpc, where).toEqual({ port: row.grpcPort });
      }
      for (const component of components) {
        const service = r.service(`${r.fullname}-${component}`);
        const ports = Object.fromEntries(service.spec!.ports!.map((p) => [p.name, p.port]));
        expect(ports, component).toEqual(
          component === 'gateway'
            ? { http: 8080 }
            : { grpc: topology[component].grpcPort, metrics: topology[component].metricsPort },
        );
        // A Service reaches its server pods only: workers serve no RPCs.
        expect(
          r.selected(service.spec!.selector!).map((d) => d.metadata!.name),
          component,
        ).toEqual([`${r.fullname}-${component}`]);
      }
    });

    it.each(profiles)("gives each process its peers' in-cluster addresses, and only those (%s)", (profile) => {
      const r = rendered[profile];
      for (const { component, role, container } of r.workloads) {
        const given = [...envOf(container).keys()].filter((name) => name.endsWith('_GRPC_URL'));
        expect(given.sort(), `${component} ${role}`).toEqual(peersOf(component).map(grpcUrlVariable).sort());
        for (const peer of peersOf(component)) {
          // The peer's headless Service: DNS names every ready server pod, and the client balances over them.
          const service = r.service(`${r.fullname}-${peer}-headless`);
          expect(service.spec!.clusterIP).toBe('None');
          expect(r.selected(service.spec!.selector!).map((d) => d.metadata!.name)).toEqual([`${r.fullname}-${peer}`]);
          expect(envValue(container, grpcUrlVariable(peer))).toBe(
            `dns:///${service.metadata!.name}.wms.svc:${service.spec!.ports!.find((p) => p.name === 'grpc')!.port}`,
          );
        }
      }
    });
  });

  describe('against each config.ts', () => {
    it.each(profiles)(
      'gives every process only variables its config reads, every setting it needs, and a valid whole (%s)',
      (profile) => {
        for (const { component, role, container } of rendered[profile].processes) {
          const where = `${profile}: ${component} ${role}`;
          const schema = configSchemas[component];
          const given = [...envOf(container).keys()];
          expect(new Set(given).size, `${where}: a variable given twice`).toBe(given.length);
          for (const name of given) expect(Object.keys(schema.shape), `${where} is given ${name}`).toContain(name);

          const required = Object.keys(schema.shape).filter(
            (name) => !schema.shape[name]!.safeParse(undefined).success,
          );
          for (const name of required) expect(given, `${where} needs ${name}`).toContain(name);

          if (role === 'migrate') {
            // A migration connects to its database and nothing else.
            expect(given.sort(), where).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'ROLE']);
          } else {
            for (const name of Object.keys(schema.shape))
              if (MUST_REACH.has(name)) expect(given, `${where} must get ${name}`).toContain(name);
          }

          const parsed = schema.safeParse(processEnv(container));
          if (!parsed.success)
            throw new Error(
              `${where}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
            );
          // The storage driver's own checks, which the gateway and the services apply at start.
          if (role !== 'migrate' && 'STORAGE_DRIVER' in schema.shape)
            expect(() => storageConfigFrom(parsed.data as StorageEnv), where).not.toThrow();
        }
      },
    );

    it('lets a service block set only settings of its own config that the chart does not set itself', () => {
      const schema = JSON.parse(readFileSync(path.join(chartDir, 'values.schema.json'), 'utf8')) as JsonSchema;
      for (const component of components) {
        const own = Object.keys(schema.properties!.services!.properties![component]!.properties!.env!.properties ?? {});
        for (const name of own) {
          expect(Object.keys(configSchemas[component].shape), `${component}.env.${name}`).toContain(name);
          expect(CHART_MANAGED.has(name), `${component}.env.${name} is the chart's`).toBe(false);
        }
      }
    });

    it("passes a service's own settings through as written, numbers as integers", () => {
      const identity = rendered.production.workloads.find((w) => w.component === 'identity')!.container;
      expect(envValue(identity, 'SESSION_TTL_SECONDS')).toBe('2592000');
      const gateway = rendered.production.workloads.find((w) => w.component === 'gateway')!.container;
      expect(envValue(gateway, 'GRPC_DEADLINE_MS')).toBe('10000');
      expect(envValue(gateway, 'TRUST_PROXY')).toBe('1');
    });

    it('reaches a self-hosted provider from realtime and the gateway, and Pusher Channels from realtime alone', () => {
      const hosted = rendered.minimal.workloads;
      for (const { container } of hosted) expect(envOf(container).has('PUSHER_HOST')).toBe(false);
      const selfHosted = rendered.production.workloads.filter(
        (w) => w.component === 'realtime' || w.component === 'gateway',
      );
      expect(selfHosted).toHaveLength(3);
      for (const { container } of selfHosted) {
        expect(envValue(container, 'PUSHER_HOST')).toBe('soketi.realtime.svc.cluster.local');
        expect(envValue(container, 'PUSHER_PORT')).toBe('6001');
        expect(envValue(container, 'PUSHER_USE_TLS')).toBe('false');
      }
    });
  });

  describe('values.schema.json', () => {
    it('closes every object (additionalProperties: false), maps of labels and annotations aside', () => {
      const schema = JSON.parse(readFileSync(path.join(chartDir, 'values.schema.json'), 'utf8')) as JsonSchema;
      const open: string[] = [];
      const walk = (node: JsonSchema, at: string) => {
        if (node.type === 'object' && node.additionalProperties !== false) {
          const isStringMap =
            typeof node.additionalProperties === 'object' &&
            node.additionalProperties.type === 'string' &&
            !node.properties;
          if (!isStringMap) open.push(at);
        }
        for (const [key, child] of Object.entries(node.properties ?? {})) walk(child, `${at}.${key}`);
        for (const [key, child] of Object.entries(node.definitions ?? {})) walk(child, `#${key}`);
      };
      walk(schema, '');
      expect(open).toEqual([]);
    });

    it("is documented: the README's values table has a row for every key (a row covers the keys under it)", () => {
      const schema = JSON.parse(readFileSync(path.join(chartDir, 'values.schema.json'), 'utf8')) as JsonSchema;
      const readme = readFileSync(path.join(chartDir, 'README.md'), 'utf8');
      const rows = new Set([...readme.matchAll(/^\| `([^`]+)` +\|/gm)].map((m) => m[1]));
      const resolve = (node: JsonSchema) =>
        node.$ref ? schema.definitions![node.$ref.replace('#/definitions/', '')]! : node;
      const undocumented: string[] = [];
      const walk = (node: JsonSchema, at: string[]) => {
        const key = at.join('.');
        if (
          at.length &&
          (rows.has(key) || (at[0] === 'services' && rows.has(['services', '<name>', ...at.slice(2)].join('.'))))
        )
          return;
        const { properties } = resolve(node);
        if (!properties) return void undocumented.push(key);
        for (const [name, child] of Object.entries(properties)) walk(child, [...at, name]);
      };
      walk(schema, []);
      expect(undocumented).toEqual([]);
    });

    it('fails the install on a misspelt or misplaced key', async () => {
      const mistakes = [
        ['services.gateway.replicaCount=2', 'replicaCount'],
        ['global.databse.existingSecret=wms', 'databse'],
        ['services.identity.env.SESION_TTL_SECONDS=60', 'SESION_TTL_SECONDS'],
        // identity has no worker role
        ['services.identity.worker.enabled=true', 'worker'],
        ['services.mesaging.enabled=true', 'mesaging'],
        ['services.gateway.rollingUpdate.maxSurg=1', 'maxSurg'],
      ];
      const results = await Promise.all([
        ...mistakes.map(([set]) => template('minimal', '--set', set!)),
        // Soketi would read a numeric key as a number.
        template('minimal', '--set-string', 'global.realtime.key=12345'),
      ]);
      mistakes.push(['global.realtime.key=12345', "'/global/realtime/key': 'not' failed"]);
      results.forEach((result, i) => {
        expect(result.code, mistakes[i]![0]).not.toBe(0);
        expect(result.stderr, mistakes[i]![0]).toContain('values don');
        expect(result.stderr, mistakes[i]![0]).toContain(mistakes[i]![1]);
      });
    });

    it("renders the README's install steps as written: its example values, and its Secret in the release's namespace", async () => {
      const readme = readFileSync(path.join(chartDir, 'README.md'), 'utf8');
      const values = /```yaml\n(global:[\s\S]*?)```/.exec(readme)?.[1];
      expect(values, 'the README shows example values').toBeDefined();
      const dir = mkdtempSync(path.join(tmpdir(), 'wms-chart-readme-'));
      try {
        writeFileSync(path.join(dir, 'my-values.yaml'), values!);
        // The install command of the README, as `helm template`.
        const install = /helm upgrade --install (\S+) charts\/wms --namespace (\S+) -f my-values.yaml/.exec(readme);
        expect(install, 'the README shows the install command').not.toBeNull();
        const result = await helm([
          'template',
          install![1]!,
          chartDir,
          '--namespace',
          install![2]!,
          '-f',
          path.join(dir, 'my-values.yaml'),
        ]);
        expect(result.code, result.stderr).toBe(0);
        // The Secret the README creates is where the release's pods (and its migration Jobs, which run first) look.
        expect(readme).toContain(`kubectl --namespace ${install![2]} create secret generic wms`);
        const manifests = parseAllDocuments(result.stdout)
          .map((doc) => doc.toJS() as Manifest | null)
          .filter((m): m is Manifest => m !== null);
        const secretsRead = new Set(
          manifests.flatMap(
            (m) =>
              JSON.stringify(m)
                .match(/"secretKeyRef":\{[^}]*"name":"([^"]+)"/g)
                ?.map((ref) => /"name":"([^"]+)"/.exec(ref)![1]) ?? [],
          ),
        );
        expect([...secretsRead]).toEqual(['wms']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuses to render without the settings that have no safe default, naming them', async () => {
      const result = await template(undefined);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/global\.\w+(\.existingSecret)? is required/);
    });
  });

  describe('security', () => {
    it.each(profiles)(
      'runs every pod non-root, read-only (but for live update), unprivileged, without capabilities, with a writable /tmp (%s)',
      (profile) => {
        for (const { name, template: pod } of rendered[profile].podTemplates) {
          const spec = pod.spec!;
          expect(spec.automountServiceAccountToken, name).toBe(false);
          expect(spec.securityContext?.runAsNonRoot, name).toBe(true);
          expect(spec.securityContext?.runAsUser, name).toBeGreaterThan(0);
          expect(spec.securityContext?.seccompProfile?.type, name).toBe('RuntimeDefault');
          const emptyDirs = new Set(spec.volumes!.filter((v) => v.emptyDir).map((v) => v.name));
          for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
            const where = `${name} ${container.name}`;
            // Tilt's live update writes synced sources into its containers: the one protection its profile relaxes.
            const readOnlyRootFilesystem = profile !== 'tilt';
            expect(container.securityContext, where).toMatchObject({
              runAsNonRoot: true,
              allowPrivilegeEscalation: false,
              readOnlyRootFilesystem,
            });
            expect(container.securityContext?.privileged, where).not.toBe(true);
            expect(container.securityContext?.capabilities?.drop, where).toEqual(['ALL']);
            expect(container.securityContext?.capabilities?.add, where).toBeUndefined();
            const tmp = container.volumeMounts?.find((m) => m.mountPath === '/tmp');
            expect(tmp && emptyDirs.has(tmp.name), `${where}: /tmp is an emptyDir`).toBe(true);
          }
        }
      },
    );

    it.each(profiles)(
      'renders no Secret and reads secrets only from the existing Secrets the values name (%s)',
      (profile) => {
        const r = rendered[profile];
        expect(r.manifests.filter((m) => m.kind === 'Secret')).toEqual([]);
        const values = parse(readFileSync(path.join(chartDir, 'ci', `${profile}-values.yaml`), 'utf8')) as {
          global: Record<string, { existingSecret?: string }>;
        };
        const named = new Set(
          Object.values(values.global)
            .map((g) => g.existingSecret)
            .filter(Boolean),
        );
        for (const { template: pod, name } of r.podTemplates) {
          for (const container of pod.spec!.containers) {
            for (const e of container.env ?? []) {
              if (e.valueFrom) expect(named.has(e.valueFrom.secretKeyRef?.name), `${name} ${e.name}`).toBe(true);
              // Nothing secret as a literal value.
              if (/SECRET|PASSWORD|PRIVATE|DATABASE_URL|REDIS_URL|SMTP_URL|ACCESS_KEY/.test(e.name))
                expect(e.valueFrom?.secretKeyRef, `${name} ${e.name}`).toBeDefined();
            }
          }
        }
      },
    );

    it('lets only the gateway and the calling peers reach a service, and only monitoring its metrics', () => {
      const r = rendered.production;
      const policies = r.of<INetworkPolicy>('NetworkPolicy');
      expect(policies.map((p) => p.metadata!.labels!['app.kubernetes.io/component']).sort()).toEqual(
        [...serviceNames].sort(),
      );
      for (const policy of policies) {
        const service = policy.metadata!.labels!['app.kubernetes.io/component'] as ServiceName;
        const callers = components.filter((c) => peersOf(c).includes(service));
        expect(policy.spec!.policyTypes).toEqual(['Ingress']);
        // The policy covers the service's server and worker pods.
        expect(
          r
            .selected(policy.spec!.podSelector!.matchLabels!)
            .map((d) => d.metadata!.labels!['wms/role'])
            .sort(),
        ).toEqual(
          (topology[service].roles as readonly string[]).includes('worker') ? ['server', 'worker'] : ['server'],
        );
        const [grpcRule, metricsRule, ...more] = policy.spec!.ingress!;
        expect(more).toEqual([]);
        expect(grpcRule!.ports).toEqual([{ port: 'grpc', protocol: 'TCP' }]);
        expect(grpcRule!.from).toHaveLength(1);
        const from = grpcRule!.from![0]!;
        expect(from.namespaceSelector).toBeUndefined();
        expect(from.podSelector!.matchLabels).toEqual({
          'app.kubernetes.io/name': 'wms',
          'app.kubernetes.io/instance': RELEASE,
        });
        expect(from.podSelector!.matchExpressions).toEqual([
          { key: 'app.kubernetes.io/component', operator: 'In', values: [...callers].sort() },
        ]);
        expect(metricsRule!.ports).toEqual([{ port: 'metrics', protocol: 'TCP' }]);
        expect(metricsRule!.from).toEqual([
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
            podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
          },
        ]);
      }
      expect(rendered.minimal.of('NetworkPolicy')).toEqual([]);
    });
  });

  describe('operations', () => {
    it('migrates each service in a pre-install and pre-upgrade hook that is replaced on retry and removed on success', () => {
      for (const job of rendered.minimal.jobs) {
        expect(job.metadata!.annotations).toEqual({
          'helm.sh/hook': 'pre-install,pre-upgrade',
          'helm.sh/hook-weight': expect.stringMatching(/^-?\d+$/),
          'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
        });
        expect(job.spec!.template.spec!.restartPolicy).toBe('Never');
      }
    });

    it.each(profiles)(
      'replaces pods one at a time, a new one ready before an old one stops, and gives servers a pause before SIGTERM (%s)',
      (profile) => {
        for (const { component, role, deployment, container } of rendered[profile].workloads) {
          const where = `${component} ${role}`;
          expect(deployment.spec!.strategy, where).toEqual({
            type: 'RollingUpdate',
            rollingUpdate: { maxUnavailable: 0, maxSurge: 1 },
          });
          // Paced for callers to find each new pod (the previous release's gRPC clients resolve DNS every 30 s).
          expect(deployment.spec!.minReadySeconds, where).toBe(30);
          // The pause, then kit's onShutdown's 15 s at most, with time to spare.
          expect(deployment.spec!.template.spec!.terminationGracePeriodSeconds, where).toBe(30);
          if (role === 'server')
            expect(container.lifecycle, where).toEqual({ preStop: { exec: { command: ['sleep', '5'] } } });
          else expect(container.lifecycle, where).toBeUndefined();
        }
      },
    );

    it("takes a service's rollingUpdate key by key over the defaults, for its server and worker, and the stop settings from the defaults", async () => {
      const result = await template(
        'minimal',
        '--set',
        'services.messaging.rollingUpdate.maxSurge=25%',
        '--set',
        'defaults.preStopSleepSeconds=10,defaults.terminationGracePeriodSeconds=26',
      );
      expect(result.code, result.stderr).toBe(0);
      const manifests = parseAllDocuments(result.stdout)
        .map((doc) => doc.toJS() as Manifest | null)
        .filter((m): m is Manifest => m !== null);
      const r = new Rendered('minimal', manifests);
      expect(r.workloads.filter((w) => w.component === 'messaging')).toHaveLength(2);
      for (const { component, role, deployment, container } of r.workloads) {
        const where = `${component} ${role}`;
        expect(deployment.spec!.strategy!.rollingUpdate, where).toEqual({
          maxUnavailable: 0,
          maxSurge: component === 'messaging' ? '25%' : 1,
        });
        expect(deployment.spec!.template.spec!.terminationGracePeriodSeconds, where).toBe(26);
        if (role === 'server') expect(container.lifecycle?.preStop?.exec?.command, where).toEqual(['sleep', '10']);
      }

      const noPause = await template('minimal', '--set', 'defaults.preStopSleepSeconds=0');
      expect(noPause.code, noPause.stderr).toBe(0);
      expect(noPause.stdout).not.toContain('lifecycle:');
    });

    it('refuses a grace period that does not outlast the preStop pause and 15 s more, and a rollout that could not start, naming the setting', async () => {
      const cases = [
        ['defaults.terminationGracePeriodSeconds=20', 'defaults.terminationGracePeriodSeconds (20)'],
        ['defaults.preStopSleepSeconds=16', 'defaults.terminationGracePeriodSeconds (30)'],
        ['services.asset.rollingUpdate.maxSurge=0', 'services.asset.rollingUpdate'],
      ];
      const results = await Promise.all(cases.map(([set]) => template('minimal', '--set', set!)));
      results.forEach((result, i) => {
        expect(result.code, cases[i]![0]).not.toBe(0);
        expect(result.stderr, cases[i]![0]).toContain(cases[i]![1]);
      });
      const justEnough = await template('minimal', '--set', 'defaults.terminationGracePeriodSeconds=21');
      expect(justEnough.code, justEnough.stderr).toBe(0);
    });

    it('tells the installer where the gateway is (NOTES.txt)', async () => {
      const install = (profile: Profile) =>
        helm([
          'install',
          RELEASE,
          chartDir,
          '--dry-run=client',
          '--namespace',
          'wms',
          '-f',
          path.join(chartDir, 'ci', `${profile}-values.yaml`),
        ]);
      const [minimal, tilt] = await Promise.all([install('minimal'), install('tilt')]);
      expect(minimal.code, minimal.stderr).toBe(0);
      expect(minimal.stdout.slice(minimal.stdout.indexOf('NOTES:'))).toContain(
        'The API is at https://chat.example.com',
      );
      expect(tilt.code, tilt.stderr).toBe(0);
      expect(tilt.stdout.slice(tilt.stdout.indexOf('NOTES:'))).toContain('port-forward service/wms-gateway 8080:http');
    });

    it('runs one replica of each role, without autoscaling or budgets, with the minimal profile', () => {
      const r = rendered.minimal;
      for (const { deployment } of r.workloads) expect(deployment.spec!.replicas, deployment.metadata!.name).toBe(1);
      for (const kind of ['HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ServiceMonitor'])
        expect(r.of(kind), kind).toEqual([]);
      expect(r.workloads.filter((w) => w.role === 'worker')).not.toEqual([]);
    });

    it('scales with the production profile: replicas, autoscalers owning their counts, a budget per Deployment', () => {
      const r = rendered.production;
      const hpas = r.of<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler');
      expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(
        ['gateway', 'identity', 'messaging'].map((c) => `${r.fullname}-${c}`),
      );
      for (const { deployment } of r.workloads) {
        const scaled = hpas.some((h) => h.spec.scaleTargetRef.name === deployment.metadata!.name);
        if (scaled) expect(deployment.spec!.replicas, deployment.metadata!.name).toBeUndefined();
        else expect(deployment.spec!.replicas, deployment.metadata!.name).toBeGreaterThanOrEqual(2);
      }
      const budgets = r.of<IPodDisruptionBudget>('PodDisruptionBudget');
      expect(budgets.map((b) => r.selected(b.spec!.selector!.matchLabels!).map((d) => d.metadata!.name))).toEqual(
        expect.arrayContaining(r.workloads.map((w) => [w.deployment.metadata!.name])),
      );
      expect(budgets).toHaveLength(r.workloads.length);
    });

    it('scrapes the metrics of every server and worker with a ServiceMonitor', () => {
      const r = rendered.production;
      const monitors = r.of<ServiceMonitor>('ServiceMonitor');
      expect(monitors).toHaveLength(components.length);
      for (const { component, role, deployment, container } of r.workloads) {
        const metricsPort = container.ports!.find(
          (p) => p.name === (component === 'gateway' ? 'http' : 'metrics'),
        )!.containerPort;
        const scraped = monitors.some((monitor) =>
          r.services.some((service) => {
            const selectsService = Object.entries(monitor.spec.selector.matchLabels).every(
              ([k, v]) => service.metadata!.labels![k] === v,
            );
            const selectsPod = r.selected(service.spec!.selector!).includes(deployment);
            const servesMetrics = (e: { port: string; path: string }) =>
              e.path === '/metrics' &&
              service.spec!.ports!.some((p) => p.name === e.port && p.targetPort === e.port && p.port === metricsPort);
            return selectsService && selectsPod && monitor.spec.endpoints.some(servesMetrics);
          }),
        );
        expect(scraped, `${component} ${role}`).toBe(true);
      }
    });

    it('routes the whole API, the realtime websocket included, to the gateway through the Ingress', () => {
      for (const profile of ['minimal', 'production'] as const) {
        const r = rendered[profile];
        const [ingress, ...more] = r.of<IIngress>('Ingress');
        expect(more).toEqual([]);
        const rule = ingress!.spec!.rules![0]!;
        expect(rule.host).toBe('chat.example.com');
        const route = rule.http!.paths.find((p) => p.pathType === 'Prefix' && '/realtime/ws'.startsWith(p.path!));
        expect(route?.backend.service).toEqual({ name: `${r.fullname}-gateway`, port: { name: 'http' } });
        expect(r.service(`${r.fullname}-gateway`).spec!.ports!.map((p) => p.name)).toContain('http');
        // ingress-nginx would otherwise close an idle websocket after 60 s.
        expect(
          Number(ingress!.metadata!.annotations!['nginx.ingress.kubernetes.io/proxy-read-timeout']),
        ).toBeGreaterThanOrEqual(3600);
      }
      expect(rendered.production.of<IIngress>('Ingress')[0]!.spec!.tls).toEqual([
        { hosts: ['chat.example.com'], secretName: 'chat-example-com-tls' },
      ]);
      expect(rendered.tilt.of('Ingress')).toEqual([]);
    });
  });

  describe('the Tilt profile', () => {
    const dependencies = ['postgres', 'redis', 'minio', 'soketi', 'mailpit'];

    it('runs the dependencies in the cluster, and only with that profile', () => {
      const dev = (r: Rendered) =>
        r.deployments
          .filter((d) => d.metadata!.labels!['wms/role'] === 'dev')
          .map((d) => d.metadata!.labels!['app.kubernetes.io/component']);
      expect(dev(rendered.tilt).sort()).toEqual([...dependencies].sort());
      for (const name of dependencies)
        expect(rendered.tilt.service(`wms-${name}`).spec!.ports!.length).toBeGreaterThan(0);
      expect(dev(rendered.minimal)).toEqual([]);
      expect(dev(rendered.production)).toEqual([]);
    });

    it('configures Soketi with the realtime app, non-numeric credentials and webhooks to the gateway', () => {
      const r = rendered.tilt;
      const soketi = r.deployments.find((d) => d.metadata!.name === 'wms-soketi')!.spec!.template.spec!.containers[0]!;
      const realtime = r.workloads.filter((w) => w.component === 'realtime');
      const gateway = r.workloads.find((w) => w.component === 'gateway')!.container;
      const soketiService = r.service('wms-soketi');
      for (const { container } of [...realtime, { container: gateway }]) {
        expect(envValue(container, 'PUSHER_HOST')).toBe(soketiService.metadata!.name);
        expect(envValue(container, 'PUSHER_PORT')).toBe(String(soketiService.spec!.ports![0]!.port));
      }
      for (const { container } of realtime) {
        expect(envValue(container, 'PUSHER_APP_ID')).toBe(envValue(soketi, 'SOKETI_DEFAULT_APP_ID'));
        expect(envValue(container, 'PUSHER_KEY')).toBe(envValue(soketi, 'SOKETI_DEFAULT_APP_KEY'));
        expect(envOf(container).get('PUSHER_SECRET')!.valueFrom).toEqual(
          envOf(soketi).get('SOKETI_DEFAULT_APP_SECRET')!.valueFrom,
        );
      }
      expect(looksNumeric(envValue(soketi, 'SOKETI_DEFAULT_APP_KEY')!)).toBe(false);
      expect(envValue(soketi, 'SOKETI_DEFAULT_APP_USER_AUTHENTICATION')).toBe('true');
      const webhooks = JSON.parse(envValue(soketi, 'SOKETI_DEFAULT_APP_WEBHOOKS')!) as Array<{
        url: string;
        event_types: string[];
      }>;
      expect(webhooks).toEqual([
        {
          url: 'http://wms-gateway:8080/realtime/webhooks/pusher',
          event_types: ['channel_occupied', 'channel_vacated', 'member_added', 'member_removed'],
        },
      ]);
    });

    it('runs several Soketi nodes only with the Redis adapter and rate limiter, on the dev Redis under the prefix', async () => {
      const soketiOf = (manifests: Manifest[]) =>
        manifests.find((m) => m.kind === 'Deployment' && m.metadata.name === 'wms-soketi') as IDeployment;
      const single = soketiOf(rendered.tilt.manifests);
      expect(single.spec!.replicas).toBe(1);
      expect(envOf(single.spec!.template.spec!.containers[0]!).has('SOKETI_ADAPTER_DRIVER')).toBe(false);

      const [several, refused] = await Promise.all([
        template(
          'tilt',
          ...['dev.soketi.replicas=3', 'dev.soketi.adapter=redis', 'global.redis.prefix=chat-dev'].flatMap((v) => [
            '--set',
            v,
          ]),
        ),
        template('tilt', '--set', 'dev.soketi.replicas=2'),
      ]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('several Soketi nodes need dev.soketi.adapter: redis');
      expect(several.code, several.stderr).toBe(0);
      const manifests = parseAllDocuments(several.stdout)
        .map((doc) => doc.toJS() as Manifest | null)
        .filter((m): m is Manifest => m !== null);
      const soketi = soketiOf(manifests);
      expect(() => new Deployment(soketi as never).validate()).not.toThrow();
      expect(soketi.spec!.replicas).toBe(3);
      const container = soketi.spec!.template.spec!.containers[0]!;
      const redis = rendered.tilt.service('wms-redis');
      expect(
        Object.fromEntries(
          [...envOf(container)]
            .filter(([name]) => /^SOKETI_(ADAPTER|RATE|DB)_/.test(name))
            .map(([name, e]) => [name, e.value]),
        ),
      ).toEqual({
        SOKETI_ADAPTER_DRIVER: 'redis',
        SOKETI_ADAPTER_REDIS_PREFIX: 'chat-dev:soketi',
        SOKETI_RATE_LIMITER_DRIVER: 'redis',
        SOKETI_DB_REDIS_HOST: redis.metadata!.name,
        SOKETI_DB_REDIS_PORT: String(redis.spec!.ports![0]!.port),
        SOKETI_DB_REDIS_KEY_PREFIX: 'chat-dev:soketi:',
      });
      // The rest of a node's settings are the single node's.
      const rest = (c: IContainer) => (c.env ?? []).filter((e) => !/^SOKETI_(ADAPTER|RATE|DB)_/.test(e.name));
      expect(rest(container)).toEqual(rest(single.spec!.template.spec!.containers[0]!));
    });

    it('points every process that uses Redis at a Redis Cluster with global.redis.clusterNodes, and refuses a node not host:port', async () => {
      const [cluster, bad] = await Promise.all([
        template('production', '--set', 'global.redis.clusterNodes={redis-0.redis:6379,redis-1.redis:6379}'),
        template('production', '--set', 'global.redis.clusterNodes={redis-0.redis}'),
      ]);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain('clusterNodes');
      expect(cluster.code, cluster.stderr).toBe(0);
      const containers = (manifests: Manifest[]) =>
        manifests
          .filter((m) => m.kind === 'Deployment' || m.kind === 'Job')
          .flatMap((m) => (m as IDeployment).spec!.template.spec!.containers)
          .filter((c) => envOf(c).has('REDIS_URL'));
      const withCluster = containers(
        parseAllDocuments(cluster.stdout).flatMap((d) => (d.toJS() as Manifest | null) ?? []),
      );
      expect(withCluster.length).toBeGreaterThan(5);
      for (const c of withCluster)
        expect(envOf(c).get('REDIS_CLUSTER_NODES')?.value, c.name).toBe('redis-0.redis:6379,redis-1.redis:6379');
      for (const c of containers(rendered.production.manifests))
        expect(envOf(c).has('REDIS_CLUSTER_NODES'), c.name).toBe(false);
    });

    it('is served by the Secret that ci/tilt-secret.mjs prints: every key the pods read, pointing at the dependencies', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'wms-tilt-secret-'));
      try {
        const run = () =>
          promisify(execFile)(process.execPath, [
            path.join(chartDir, 'ci', 'tilt-secret.mjs'),
            path.join(dir, 'secret.json'),
          ]);
        const secret = JSON.parse((await run()).stdout) as {
          kind: string;
          metadata: { name: string };
          stringData: Record<string, string>;
        };
        // Kept: a second run prints the same credentials and keys.
        expect(JSON.parse((await run()).stdout)).toEqual(secret);
        expect(secret.kind).toBe('Secret');
        const r = rendered.tilt;
        for (const { template: pod, name } of r.podTemplates) {
          for (const container of pod.spec!.containers) {
            for (const e of container.env ?? []) {
              const ref = e.valueFrom?.secretKeyRef;
              if (!ref) continue;
              expect(ref.name, `${name} ${e.name}`).toBe(secret.metadata.name);
              expect(Object.keys(secret.stringData), `${name} ${e.name}`).toContain(ref.key);
            }
          }
        }
        const hostPort = (url: string) => new URL(url).host;
        const servicePort = (name: string) => `wms-${name}:${r.service(`wms-${name}`).spec!.ports![0]!.port}`;
        expect(hostPort(secret.stringData.DATABASE_URL!)).toBe(servicePort('postgres'));
        expect(hostPort(secret.stringData.REDIS_URL!)).toBe(servicePort('redis'));
        expect(hostPort(secret.stringData.SMTP_URL!)).toBe(
          `wms-mailpit:${r.service('wms-mailpit').spec!.ports!.find((p) => p.name === 'smtp')!.port}`,
        );
        expect(looksNumeric(secret.stringData.PUSHER_SECRET!)).toBe(false);
        const signature = sign(null, Buffer.from('wms'), createPrivateKey(secret.stringData.JWT_PRIVATE_KEY!));
        expect(verify(null, Buffer.from('wms'), createPublicKey(secret.stringData.JWT_PUBLIC_KEY!), signature)).toBe(
          true,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
}
