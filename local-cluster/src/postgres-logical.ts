import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { LOGICAL_SETTINGS, redact, sleep } from './infra.ts';

// Realtime follows the events the services commit through Postgres's logical decoding (services/realtime/README.md),
// so every Postgres that runs wms decodes its WAL. The machine's Postgres is set up once (`pnpm test` and `pnpm start`
// do it), an embedded one starts with the settings (infra.ts); any other is the operator's to set
// (docs/operations.md#postgres).

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

const walLevel = async (url: string) => (await query<{ wal_level: string }>(url, 'SHOW wal_level'))[0]!.wal_level;

/** As many slots and WAL senders as LOGICAL_SETTINGS asks for, or more (parallel test files each have a database). */
async function enoughSlots(url: string): Promise<boolean> {
  const [row] = await query<{ slots: number; senders: number }>(
    url,
    `SELECT current_setting('max_replication_slots')::int AS slots, current_setting('max_wal_senders')::int AS senders`,
  );
  return (
    row!.slots >= Number(LOGICAL_SETTINGS.max_replication_slots) &&
    row!.senders >= Number(LOGICAL_SETTINGS.max_wal_senders)
  );
}

/**
 * Makes sure the Postgres at `adminUrl` decodes its WAL. Unless it does, and only with `restart` (the machine's own
 * Postgres, run by Debian's `pg_ctlcluster`), the settings are written with ALTER SYSTEM and the server restarted;
 * otherwise it fails with what to do.
 */
export async function ensureLogicalDecoding(
  adminUrl: string,
  log: (line: string) => void,
  { restart }: { restart: boolean },
): Promise<void> {
  const level = await walLevel(adminUrl);
  // Slots are counted on the machine's own Postgres only, where the tests make many databases at once.
  if (level === 'logical' && (!restart || (await enoughSlots(adminUrl)))) return;
  const [{ config_file: configFile } = { config_file: '' }] = await query<{ config_file: string }>(
    adminUrl,
    'SHOW config_file',
  );
  // Debian's layout: /etc/postgresql/<version>/<cluster>/postgresql.conf
  const cluster = /^\/etc\/postgresql\/([^/]+)\/([^/]+)\/postgresql\.conf$/.exec(configFile);
  if (!restart || !cluster) {
    throw new Error(
      `postgres at ${redact(adminUrl)} has wal_level = ${level}${level === 'logical' ? ' and fewer slots than the tests use' : ''}; set ` +
        `${Object.entries(LOGICAL_SETTINGS)
          .map(([k, v]) => `${k} = ${v}`)
          .join(', ')} and restart it (docs/operations.md#postgres)`,
    );
  }
  log(
    `postgres: setting wal_level = logical and slots (ALTER SYSTEM), restarting cluster ${cluster[1]}/${cluster[2]}, once`,
  );
  for (const [name, value] of Object.entries(LOGICAL_SETTINGS)) {
    await query(adminUrl, `ALTER SYSTEM SET ${name} = '${value}'`);
  }
  await promisify(execFile)('pg_ctlcluster', ['--skip-systemctl-redirect', cluster[1]!, cluster[2]!, 'restart']);
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await walLevel(adminUrl)) === 'logical') return;
      throw new Error('wal_level is still not logical after the restart');
    } catch (err) {
      if (attempt === 30) throw err;
      await sleep(1000);
    }
  }
}

// `node --import tsx local-cluster/src/postgres-logical.ts`: the machine's Postgres (or TEST_DATABASE_URL's), for `pnpm test`.
if (process.argv[1] === new URL(import.meta.url).pathname) {
  await ensureLogicalDecoding(
    process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    (line) => console.log(line),
    { restart: true },
  );
}
