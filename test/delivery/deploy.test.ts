import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createHealthClient } from '@wms/kit/grpc-client';
import {
  createTestDatabase,
  dropRedisPrefix,
  freePort,
  testRedisPrefix,
  testRedis,
  testRedisEnv,
  waitFor,
} from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcUrlVariable, type ServiceName, serviceNames, topology } from '../../protos/src/topology.ts';

// What each production image holds and runs, without Docker: the Dockerfile's build stage (install from the lockfile,
// build, `pnpm deploy` of the package, publishConfig applied) in a copy of the repository, as `COPY . .` gives the
// image one, then its runtime command from the deploy folder with plain node (no TypeScript loader, nothing inherited
// from this process's environment), against the real Postgres and Redis: every service's migrate role, then its
// server and worker roles, then the gateway in front of them, serving the web client its image holds (the web stage's
// build, copied beside its deploy as the gateway's ports stage does). The copy keeps the checkout as it was: `pnpm build`
// empties every dist/ first, and a legacy deploy also writes a stray node_modules/.bin into the deployed package's
// folder at the deploy folder's path relative to the workspace (pnpm/pnpm#8835), which once landed in services/.

const repoRoot = path.resolve(import.meta.dirname, '../..');
const rootManifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  packageManager: string;
};
const dockerfile = readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8');
const run = promisify(execFile);

type Package = 'gateway' | ServiceName;
const packages: Package[] = ['gateway', ...serviceNames];
/** The long-running processes of the services: each server, and each worker where the service has queues. */
const serviceRoles = serviceNames.flatMap((service) =>
  topology[service].roles.filter((r) => r !== 'migrate').map((role) => ({ service, role })),
);

/** The build stage's steps: one install and build, then the deploy of `pkg` into `out` (the Dockerfile has PACKAGE and /out). */
const installStep = ['pnpm', 'install', '--frozen-lockfile', '--offline'];
const buildStep = ['pnpm', 'build'];
const deploySteps = (pkg: string, out: string) => [
  ['pnpm', '--filter', `@wms/${pkg}`, '--fail-if-no-match', '--prod', 'deploy', '--legacy', out],
  ['node', '--import', 'tsx', 'scripts/apply-publish-config.ts', out],
];
/** The web stage's step (on the same install), and where the gateway's image puts its output: /app/web/dist. */
const webBuildStep = ['pnpm', 'build:web'];
const webCopy = { from: 'web/dist', to: 'web/dist' };
/** The runtime stage's command (after tini). */
const imageCommand = ['node', 'dist/src/main.js'];

let pnpm: string;

/** Runs a step of the image's build in the build's copy of the repository. */
async function runStep([command, ...args]: string[]): Promise<void> {
  await run(command === 'pnpm' ? pnpm : process.execPath, args, { cwd: buildRoot, maxBuffer: 64 * 1024 * 1024 });
}

/** Copies the checkout's files as git sees them (committed or not, ignored ones aside: no node_modules, no dist). */
async function copyCheckout(to: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  for (const file of stdout.split('\0').filter(Boolean)) {
    // A file deleted but not yet committed is listed and absent.
    if (existsSync(path.join(repoRoot, file))) cpSync(path.join(repoRoot, file), path.join(to, file));
  }
}

interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
  exit: Promise<number | null>;
}

const procs: Proc[] = [];
let imageRoot: string;
let buildRoot: string;
let deployRoot: string;
let storageDir: string;
let database: { url: string; drop(): Promise<void> };
const redisPrefix = testRedisPrefix();
let env: Record<string, string>;
const grpcPorts = new Map<string, number>();
let gatewayPort: number;

/** A GET to the deployed gateway. */
const get = (p: string) =>
  fetch(`http://127.0.0.1:${gatewayPort}${p}`).then(async (r) => ({
    status: r.status,
    headers: r.headers,
    body: await r.text(),
  }));

const deployDir = (pkg: Package) => path.join(deployRoot, pkg);

/** Starts the image's command in `pkg`'s deploy folder with only the given environment. */
function start(name: string, pkg: Package, extra: Record<string, string>): Proc {
  const [command, ...args] = imageCommand;
  const child = spawn(command === 'node' ? process.execPath : command!, args, {
    cwd: deployDir(pkg),
    env: { ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let partial = '';
  child.stdout.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop()!;
    output.push(...lines);
  });
  child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const proc = { name, child, output, exit };
  procs.push(proc);
  return proc;
}

/** The pino lines a process wrote. */
const logOf = (p: Proc) =>
  p.output.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg?: string; applied?: string[] });
const exited = (p: Proc) => p.child.exitCode !== null || p.child.signalCode !== null;
const tail = (p: Proc) => `${p.name}:\n${p.output.slice(-15).join('\n')}`;

/** Every TypeScript source (declaration files aside) under `dir`, outside node_modules. */
function typeScriptSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : typeScriptSources(file);
    return /\.[mc]?tsx?$/.test(entry.name) && !/\.d\.[mc]?ts$/.test(entry.name) ? [file] : [];
  });
}

beforeAll(async () => {
  imageRoot = mkdtempSync(path.join(tmpdir(), 'wms-image-'));
  buildRoot = path.join(imageRoot, 'repo');
  deployRoot = path.join(imageRoot, 'out');
  storageDir = path.join(imageRoot, 'storage');
  mkdirSync(storageDir);
  await copyCheckout(buildRoot);
  // pnpm at the version package.json pins, which the image's corepack runs; found once (npx takes seconds a call).
  pnpm = (await run('npx', ['-y', '-p', rootManifest.packageManager, 'sh', '-c', 'command -v pnpm'])).stdout.trim();
  // One install (from the store this checkout's own install filled, as the image's from its `pnpm fetch`) and one
  // build for the six deploys, as in the image.
  await runStep(installStep);
  await runStep(buildStep);
  await Promise.all([
    ...packages.map(async (pkg) => {
      for (const step of deploySteps(pkg, deployDir(pkg))) await runStep(step);
    }),
    runStep(webBuildStep),
  ]);
  cpSync(path.join(buildRoot, webCopy.from), path.join(deployDir('gateway'), webCopy.to), { recursive: true });

  // One database for every service, each in its own schema, as in production; created empty, so that the deployed
  // migrate roles are what makes the tables.
  database = await createTestDatabase('deploy', []);
  for (const service of serviceNames) grpcPorts.set(service, await freePort());
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    GRPC_HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    ...testRedisEnv,
    REDIS_PREFIX: redisPrefix,
    JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    SMTP_URL: 'smtp://127.0.0.1:1',
    STORAGE_DRIVER: 'fs',
    STORAGE_DIR: storageDir,
    STORAGE_SECRET: randomBytes(24).toString('hex'),
    ...Object.fromEntries(serviceNames.map((s) => [grpcUrlVariable(s), `127.0.0.1:${grpcPorts.get(s)}`])),
  };
});

afterAll(async () => {
  await Promise.all(
    procs
      .filter((p) => !exited(p))
      .map((p) => {
        p.child.kill('SIGKILL');
        return p.exit;
      }),
  );
  await database?.drop();
  await dropRedisPrefix(testRedis, redisPrefix);
  if (imageRoot) rmSync(imageRoot, { recursive: true, force: true });
});

describe('the Dockerfile', () => {
  it('runs the steps this test runs', () => {
    const text = dockerfile.replaceAll('"', '');
    for (const step of [installStep, buildStep, ...deploySteps('${PACKAGE}', '/out')])
      expect(text).toContain(step.join(' '));
    expect(dockerfile).toContain('COPY --from=build /out /app');
    expect(dockerfile).toContain(`CMD ${JSON.stringify(imageCommand).replaceAll(',', ', ')}`);
    expect(dockerfile).toContain('ENTRYPOINT ["/usr/bin/tini", "--"]');
  });

  it("builds the web client in a stage of its own, which only the gateway's image copies from", () => {
    const stages = Object.fromEntries(
      dockerfile.split(/^(?=FROM )/m).map((stage) => [/^FROM \S+ AS (\S+)/.exec(stage)?.[1] ?? '', stage]),
    );
    expect(stages.web).toMatch(/^FROM deps AS web\n/);
    expect(stages.web).toContain(`RUN ${webBuildStep.join(' ')}\n`);
    const copies = Object.keys(stages).filter((name) => stages[name]!.includes('--from=web'));
    expect(copies).toEqual(['ports-gateway']);
    expect(stages['ports-gateway']).toContain(`COPY --from=web /repo/${webCopy.from} /app/${webCopy.to}\n`);
  });

  it("exposes each package's ports, those of the topology", () => {
    const exposed = Object.fromEntries(
      [...dockerfile.matchAll(/^FROM runtime-base AS ports-(\S+)\nEXPOSE (.+)$/gm)].map(([, pkg, ports]) => [
        pkg,
        ports!.split(' ').map(Number),
      ]),
    );
    expect(exposed).toEqual({
      gateway: [8080],
      ...Object.fromEntries(serviceNames.map((s) => [s, [topology[s].grpcPort, topology[s].metricsPort]])),
    });
  });
});

describe.each(packages)('the deploy folder of %s', (pkg) => {
  it('holds the compiled entry and no TypeScript loader or source', () => {
    const dir = deployDir(pkg);
    expect(existsSync(path.join(dir, 'dist/src/main.js'))).toBe(true);
    expect(
      readdirSync(path.join(dir, 'node_modules/.pnpm')).filter((e) => /^(tsx|ts-node|@swc-node\+register)@/.test(e)),
    ).toEqual([]);
    expect(typeScriptSources(dir)).toEqual([]);
    // The workspace packages deployed with it export their built files only.
    for (const name of ['kit', 'protos']) {
      const dep = path.join(dir, 'node_modules/@wms', name);
      const manifest = JSON.parse(readFileSync(path.join(dep, 'package.json'), 'utf8')) as {
        exports: Record<string, string>;
      };
      for (const target of Object.values(manifest.exports)) expect(target).toMatch(/^\.\/dist\/.*\.js$/);
      expect(typeScriptSources(dep)).toEqual([]);
    }
    expect(existsSync(path.join(dir, 'node_modules/@wms/protos/dist/grpc/health/v1/health.proto'))).toBe(true);
    for (const s of serviceNames)
      expect(existsSync(path.join(dir, 'node_modules/@wms/protos/dist', topology[s].proto))).toBe(true);
  });
});

describe('the deployed processes', () => {
  it("apply each service's compiled migrations (ROLE=migrate) and exit 0", async () => {
    const migrations = serviceNames.map((s) => ({ service: s, proc: start(`${s} migrate`, s, { ROLE: 'migrate' }) }));
    for (const { service, proc } of migrations) {
      expect(await proc.exit, tail(proc)).toBe(0);
      // Beside the migrations: their list, and where the tables go on Citus (placement.ts).
      const compiled = readdirSync(path.join(deployDir(service), 'dist/migrations'))
        .filter((f) => f !== 'index.js' && f !== 'placement.js')
        .map((f) => f.replace(/\.js$/, ''))
        .sort();
      const done = logOf(proc).find((l) => l.msg === 'migrations applied');
      expect(done?.applied).toEqual(compiled);
    }
  });

  it("serve every role of every service (grpc.health.v1 SERVING) and the gateway's health, readiness and docs", async () => {
    const started: Array<{ port: number; proc: Proc }> = [];
    for (const { service, role } of serviceRoles) {
      // A server on the port its peers are given; a worker beside it on ports of its own.
      const port = role === 'server' ? grpcPorts.get(service)! : await freePort();
      started.push({
        port,
        proc: start(`${service} ${role}`, service, {
          ROLE: role,
          GRPC_PORT: String(port),
          METRICS_PORT: String(await freePort()),
        }),
      });
    }
    for (const { port, proc } of started) {
      const health = createHealthClient(`127.0.0.1:${port}`);
      try {
        await waitFor(
          `${proc.name} SERVING`,
          async () => !exited(proc) && (await health.check(2000)),
          60_000,
          200,
        ).catch((err: Error) => {
          throw new Error(`${err.message}\n${tail(proc)}`);
        });
      } finally {
        health.close();
      }
    }

    gatewayPort = await freePort();
    const gateway = start('gateway', 'gateway', { PORT: String(gatewayPort) });
    await waitFor(
      'gateway /healthz',
      async () => !exited(gateway) && (await get('/healthz')).status === 200,
      60_000,
      200,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${tail(gateway)}`);
    });
    expect(JSON.parse((await get('/healthz')).body)).toEqual({ status: 'ok' });
    // Readiness asks every deployed service for its health over gRPC: the gateway finds them all.
    await waitFor('gateway /readyz', async () => (await get('/readyz')).status === 200, 30_000, 200);
    // A file the gateway reads from a dependency's folder at run time is in the deploy.
    const docs = await get('/docs/scalar.js');
    expect([docs.status, docs.body.length > 100_000]).toEqual([200, true]);
  });

  it('serve, from the gateway, the web client its image holds at /app/ and the health answer at / as before', async () => {
    const health = await get('/');
    expect([health.status, health.body]).toEqual([200, '"ok"']);
    const index = await get('/app/');
    expect(index.status).toBe(200);
    expect(index.body).toBe(readFileSync(path.join(buildRoot, 'web/dist/index.html'), 'utf8'));
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'none'; script-src 'self'");
    // The built script and stylesheet index.html names, content-hashed, each served as built and cached for a year.
    const assets = [...index.body.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.map((a) => path.extname(a)).sort()).toEqual(['.css', '.js']);
    for (const asset of assets) {
      expect(asset).toMatch(/^assets\/index-[\w-]{8}\.(js|css)$/);
      const res = await get(`/app/${asset}`);
      expect(res.status, asset).toBe(200);
      expect(res.body).toBe(readFileSync(path.join(buildRoot, 'web/dist', asset), 'utf8'));
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
  });

  it('stop on SIGTERM (what tini hands them) and exit 0', async () => {
    const running = procs.filter((p) => !exited(p));
    expect(running.map((p) => p.name)).toEqual([
      ...serviceRoles.map(({ service, role }) => `${service} ${role}`),
      'gateway',
    ]);
    for (const p of running) p.child.kill('SIGTERM');
    const codes = await Promise.all(running.map(async (p) => [p.name, await p.exit] as const));
    expect(codes.filter(([, code]) => code !== 0)).toEqual([]);
  });
});
