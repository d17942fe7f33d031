import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { type Cluster, type ClusterOptions, withReplicas } from '@wms/local-cluster/cluster';
import { components } from '@wms/local-cluster/components';
import type pg from 'pg';
import { render } from './report.ts';

/** The unit of the CPU times in /proc. */
const MS_PER_TICK = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
/** Column titles, so that a row of every process fits a terminal: each part of a component's name shortened. */
const SHORT: Readonly<Record<string, string>> = {
  gateway: 'gw',
  identity: 'ident',
  workspace: 'wksp',
  messaging: 'msg',
  realtime: 'rt',
  worker: 'w',
  postgres: 'pg',
};
const short = (name: string) =>
  name
    .split('-')
    .map((part) => SHORT[part] ?? part)
    .join('-');

/** A column's process, or for Postgres its whole tree; undefined once it is gone. */
interface Source {
  name: string;
  ticks(): number | undefined;
  rssKiB(): number | undefined;
}

/** CPU ticks used so far by each column's processes and by the whole machine, and their resident memory. */
interface Sample {
  ticks: Map<string, number | undefined>;
  rssKiB: Map<string, number | undefined>;
  machineTicks: number;
}

/** One measured run: the requests that succeeded during it, and samples taken right before and after it. */
interface Run {
  route: string;
  requests: number;
  before: Sample;
  after: Sample;
}

/** Watches the processes of a cluster and its Postgres during measured runs and reports what each used. */
export interface ProcessWatch {
  /** Runs `run` and records what each process used per request it counts (the successful ones). */
  during<T>(route: string, run: () => Promise<T>, requests: (result: T) => number): Promise<T>;
  /** The table of CPU per request by route and process, with the memory at the end of the last run. */
  lines(): string[];
}

interface Stat {
  ppid: number;
  /** utime + stime: the process's own CPU, every thread included. */
  ticks: number;
  /** cutime + cstime: the CPU of its children that have exited and been waited for. */
  childTicks: number;
}

function stat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses, so the fields are counted from its closing one.
  const fields = text
    .slice(text.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return { ppid: fields[1]!, ticks: fields[11]! + fields[12]!, childTicks: fields[13]! + fields[14]! };
}

/** VmRSS and its shared-memory part (RssShmem) from /proc/<pid>/status, in KiB. */
function memory(pid: number): { rssKiB: number; shmemKiB: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { rssKiB: kib('VmRSS'), shmemKiB: kib('RssShmem') };
}

const processSource = (name: string, pid: number): Source => ({
  name,
  ticks: () => stat(pid)?.ticks,
  rssKiB: () => memory(pid)?.rssKiB,
});

function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => stat(pid)?.ppid === parent);
}

/** The postmaster and its children: backends (whatever database they serve) and background processes. */
function postgresSource(postmaster: number): Source {
  return {
    name: 'postgres',
    ticks: () => {
      const own = stat(postmaster);
      // Backends that exited during the run are in the postmaster's cutime/cstime, live ones in their own stat.
      return (
        own &&
        own.ticks + own.childTicks + childrenOf(postmaster).reduce((sum, pid) => sum + (stat(pid)?.ticks ?? 0), 0)
      );
    },
    rssKiB: () => {
      const tree = [postmaster, ...childrenOf(postmaster)].flatMap((pid) => memory(pid) ?? []);
      if (tree.length === 0) return undefined;
      // Shared buffers are mapped into every process of the tree: counted once.
      return tree.reduce((sum, m) => sum + m.rssKiB - m.shmemKiB, 0) + Math.max(...tree.map((m) => m.shmemKiB));
    },
  };
}

/** The busy time of every CPU so far, in ms (machineTicks). */
export const machineBusyMs = (): number => machineTicks() * MS_PER_TICK;

/** The busy time of every CPU (/proc/stat: user nice system idle iowait irq softirq steal; guest is within user). */
function machineTicks(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return user! + nice! + system! + irq! + softirq! + steal!;
}

/** The server's postmaster when it runs on this machine: the parent of the backend serving this pool's connection. */
async function findPostmaster(pool: pg.Pool): Promise<number | undefined> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const parent = stat(Number(rows[0]?.pid))?.ppid;
  if (parent === undefined) return undefined;
  // A server elsewhere (another machine, a container) can share a backend's pid with an unrelated process here.
  const command = (() => {
    try {
      return readFileSync(`/proc/${parent}/comm`, 'utf8').trim();
    } catch {
      return undefined;
    }
  })();
  return command === 'postgres' ? parent : undefined;
}

function postgresNote(postmaster: number | undefined): string {
  if (postmaster === undefined)
    return 'pg: the database server does not run on this machine (no postgres parent of its backend here), so it is not measured';
  return `pg: the postmaster (pid ${postmaster}) and all its children, the bench's own server`;
}

/** Column order: the gateway, where requests enter, then our services and workers, then the servers we did not write. */
const rank = (name: string) => (name === 'gateway' ? 0 : name === 'soketi' ? 2 : 1);

/** The processes of the cluster (those running now) and its Postgres where it runs on this machine. */
export async function watchProcesses(
  cluster: Cluster,
  pool: pg.Pool,
  replicas: ClusterOptions['replicas'],
): Promise<ProcessWatch> {
  const names = withReplicas(components, replicas)
    .map((c) => c.name)
    .sort((a, b) => rank(a) - rank(b));
  const running = names.flatMap((name) => {
    const pid = cluster.pidOf(name);
    return pid === undefined ? [] : [processSource(name, pid)];
  });
  const postmaster = await findPostmaster(pool);
  const sources = postmaster === undefined ? running : [...running, postgresSource(postmaster)];
  const self = processSource('bench', process.pid);
  const sample = (): Sample => ({
    ticks: new Map([...sources, self].map((s) => [s.name, s.ticks()])),
    rssKiB: new Map([...sources, self].map((s) => [s.name, s.rssKiB()])),
    machineTicks: machineTicks(),
  });
  const runs: Run[] = [];

  return {
    async during(route, run, requests) {
      const before = sample();
      const result = await run();
      runs.push({ route, requests: requests(result), before, after: sample() });
      return result;
    },
    lines() {
      const cpuMs = (run: Run, name: string) =>
        ((run.after.ticks.get(name) ?? Number.NaN) - (run.before.ticks.get(name) ?? Number.NaN)) * MS_PER_TICK;
      const perRequest = (run: Run, ms: number) => (Number.isNaN(ms) ? '-' : (ms / run.requests).toFixed(2));
      const mib = (kib: number | undefined) => (kib === undefined ? '-' : (kib / 1024).toFixed(0));
      const header = ['CPU ms per request', ...sources.map((s) => short(s.name)), 'sum', 'bench', 'machine'];
      const cells = runs.map((run) => [
        run.route,
        ...sources.map((s) => perRequest(run, cpuMs(run, s.name))),
        perRequest(
          run,
          sources.reduce((sum, s) => sum + cpuMs(run, s.name), 0),
        ),
        perRequest(run, cpuMs(run, 'bench')),
        perRequest(run, (run.after.machineTicks - run.before.machineTicks) * MS_PER_TICK),
      ]);
      const last = runs.at(-1)?.after.rssKiB ?? new Map<string, number | undefined>();
      const rss = [
        'RSS MiB, end of last run',
        ...sources.map((s) => mib(last.get(s.name))),
        mib(sources.reduce((sum, s) => sum + (last.get(s.name) ?? 0), 0)),
        mib(last.get('bench')),
        '-',
      ];
      return [
        `processes: CPU time (utime+stime from /proc, ${MS_PER_TICK} ms ticks) each used during each measured run, divided by the run's successful requests`,
        `columns: ${sources.map((s) => `${short(s.name)} ${s.name}`).join(', ')}; sum: all of these; bench: this process, the load generator (autocannon, the pg loops, the pusher-js client); machine: every CPU's busy time (/proc/stat), every process on the machine included`,
        postgresNote(postmaster),
        '',
        render(header, [...cells, rss], ['CPU ms per request']),
      ];
    },
  };
}
