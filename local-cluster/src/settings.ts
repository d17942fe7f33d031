import { createPublicKey } from 'node:crypto';
import path from 'node:path';
import { redact } from './infra.ts';
import { type RealtimeApp, soketiNodeProblem } from './soketi.ts';

/** One line of the start banner: what a setting is, its value as it may be shown, and where it came from. */
export interface SettingSource {
  name: string;
  /** URLs without their password; never a key or a secret. */
  value: string;
  /** The variables it was read from, or `default` when the launcher chose it. */
  from: string;
}

export interface SettingsInput {
  /** `dev`: a variable set (non-empty) in `env` always wins; `test`: the launcher sets everything, for isolation. */
  mode: 'dev' | 'test';
  /** The operator's environment (read in dev mode only). */
  env: NodeJS.ProcessEnv;
  /** Where shown paths are relative to, and relative `STORAGE_DIR`s resolve from (the children's working directory). */
  root: string;
  /** The launcher's choices for what the environment leaves unset; the asynchronous ones are asked only when needed. */
  defaults: {
    publicUrl: string;
    storageDir: string;
    mailCatcher(): Promise<{ smtpUrl: string; inboxUrl: string; dir: string | undefined }>;
    storageSecret(): Promise<{ secret: string; file: string | undefined }>;
    jwtKeys(): Promise<{ privateKey: string; publicKey: string; dir: string | undefined }>;
    /** The local realtime provider: its port and app (asked only when needed); unset when the cluster runs none. */
    realtime: { port: number; app(): Promise<RealtimeApp & { file: string | undefined }> } | undefined;
  };
}

export interface Settings {
  /** What every process gets over the inherited environment. */
  env: Record<string, string>;
  publicUrl: string;
  smtpUrl: string;
  /** Set when the launcher's mail catcher was started. */
  inboxUrl: string | undefined;
  mailDir: string | undefined;
  /** The fs driver's directory (absolute); unset with any other driver. */
  storageDir: string | undefined;
  jwt: { privateKey: string; publicKey: string };
  /** Whether the launcher runs the realtime provider: it has one, and the environment names no provider of its own. */
  localRealtime: boolean;
  sources: SettingSource[];
}

/** The realtime provider's settings (DESIGN.md), read by the realtime service and the gateway. */
const PUSHER_VARIABLES = [
  'PUSHER_APP_ID',
  'PUSHER_KEY',
  'PUSHER_SECRET',
  'PUSHER_HOST',
  'PUSHER_PORT',
  'PUSHER_USE_TLS',
  'PUSHER_CLUSTER',
];
const PUSHER_APP_VARIABLES = ['PUSHER_APP_ID', 'PUSHER_KEY', 'PUSHER_SECRET'];

export const DEFAULT_MAIL_FROM = 'wms <no-reply@wms.local>';

/**
 * The configuration the launcher hands to every process, and where each part came from. In dev mode it fills only
 * what the environment leaves unset; in test mode it sets everything, so the operator's shell cannot leak into tests.
 */
export async function resolveSettings({ mode, env: operatorEnv, root, defaults }: SettingsInput): Promise<Settings> {
  const r = resolution(mode, operatorEnv, root);
  const { env, sources } = r;

  const publicUrl = r.given('PUBLIC_URL') ?? defaults.publicUrl;
  env.PUBLIC_URL = publicUrl;
  sources.push({ name: 'public URL', value: publicUrl, from: r.fromOf(['PUBLIC_URL']) });

  const { smtpUrl, inboxUrl, mailDir } = await resolveMail(r, defaults);
  const storageDir = await resolveStorage(r, defaults);

  const jwt = await jwtKeys(r.given('JWT_PRIVATE_KEY'), r.given('JWT_PUBLIC_KEY'), () => defaults.jwtKeys(), r.shown);
  env.JWT_PRIVATE_KEY = jwt.privateKey;
  env.JWT_PUBLIC_KEY = jwt.publicKey;
  sources.push({ name: 'JWT keys', value: jwt.shown, from: r.fromOf(['JWT_PRIVATE_KEY', 'JWT_PUBLIC_KEY']) });

  resolveTrustProxy(r);
  const localRealtime = await resolveRealtime(r, defaults);

  return {
    env,
    publicUrl,
    smtpUrl,
    inboxUrl,
    mailDir,
    storageDir,
    jwt: { privateKey: jwt.privateKey, publicKey: jwt.publicKey },
    localRealtime,
    sources,
  };
}

/** What the steps of resolveSettings share: how they read the operator's environment, and what they add up. */
interface Resolution {
  mode: 'dev' | 'test';
  /** Where relative paths resolve from. */
  root: string;
  /** A variable of the operator's (dev mode only); an empty one counts as unset. */
  given: (name: string) => string | undefined;
  /** The variables of `names` that are set, for a banner line's `from`; `default` when none is. */
  fromOf: (names: string[]) => string;
  /** A path as the banner shows it: relative to the root when under it. */
  shown: (dir: string) => string;
  env: Record<string, string>;
  sources: SettingSource[];
}

function resolution(mode: 'dev' | 'test', operatorEnv: NodeJS.ProcessEnv, root: string): Resolution {
  // An empty variable counts as unset: the services would refuse it, and `FOO= pnpm start` means "no FOO".
  const given = (name: string): string | undefined =>
    mode === 'dev' && operatorEnv[name] ? operatorEnv[name] : undefined;
  return {
    mode,
    root,
    given,
    fromOf: (names) => names.filter((name) => given(name) !== undefined).join(', ') || 'default',
    shown: (dir) => {
      const relative = path.relative(root, dir);
      return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : dir;
    },
    env: {},
    sources: [],
  };
}

/** `SMTP_URL` names a relay, or the launcher's mail catcher is started; then `MAIL_FROM`. */
async function resolveMail(
  r: Resolution,
  defaults: SettingsInput['defaults'],
): Promise<{ smtpUrl: string; inboxUrl: string | undefined; mailDir: string | undefined }> {
  const { env, sources } = r;
  const relay = r.given('SMTP_URL');
  let inboxUrl: string | undefined;
  let mailDir: string | undefined;
  if (relay) {
    env.SMTP_URL = relay;
    sources.push({ name: 'mail', value: `relay ${redact(relay)}; no mail catcher`, from: 'SMTP_URL' });
  } else {
    const catcher = await defaults.mailCatcher();
    env.SMTP_URL = catcher.smtpUrl;
    inboxUrl = catcher.inboxUrl;
    mailDir = catcher.dir;
    const files = catcher.dir ? `, files ${r.shown(catcher.dir)}/*.eml` : '';
    sources.push({
      name: 'mail',
      value: `mail catcher, inbox ${catcher.inboxUrl} (SMTP ${catcher.smtpUrl})${files}`,
      from: 'default',
    });
  }
  env.MAIL_FROM = r.given('MAIL_FROM') ?? DEFAULT_MAIL_FROM;
  sources.push({ name: 'mail from', value: env.MAIL_FROM, from: r.fromOf(['MAIL_FROM']) });
  return { smtpUrl: env.SMTP_URL, inboxUrl, mailDir };
}

/** The storage driver and its settings; resolves with the fs driver's directory (absolute), unset with another. */
async function resolveStorage(r: Resolution, defaults: SettingsInput['defaults']): Promise<string | undefined> {
  const driver = r.given('STORAGE_DRIVER') ?? 'fs';
  r.env.STORAGE_DRIVER = driver;
  if (driver === 'fs') return resolveFsStorage(r, defaults);
  if (driver === 's3') {
    // The S3_* variables reach the services with the rest of the environment; an fs directory or key would only confuse.
    const endpoint = r.given('S3_ENDPOINT');
    const publicS3 = r.given('S3_PUBLIC_URL');
    const value = `s3 at ${endpoint ? redact(endpoint) : '(S3_ENDPOINT unset)'}, bucket ${r.given('S3_BUCKET') ?? 'wms'}${publicS3 ? `, clients use ${redact(publicS3)}` : ''}`;
    r.sources.push({
      name: 'storage',
      value,
      from: r.fromOf([
        'STORAGE_DRIVER',
        'S3_ENDPOINT',
        'S3_ACCESS_KEY',
        'S3_SECRET_KEY',
        'S3_REGION',
        'S3_BUCKET',
        'S3_PUBLIC_URL',
      ]),
    });
    return undefined;
  }
  r.sources.push({ name: 'storage', value: `"${driver}" (the services accept fs or s3)`, from: 'STORAGE_DRIVER' });
  return undefined;
}

/** The fs driver: its directory, and the key that signs its download URLs. */
async function resolveFsStorage(r: Resolution, defaults: SettingsInput['defaults']): Promise<string> {
  const { env } = r;
  const storageDir = path.resolve(r.root, r.given('STORAGE_DIR') ?? defaults.storageDir);
  env.STORAGE_DIR = storageDir;
  let secretFrom = 'from STORAGE_SECRET';
  const secret = r.given('STORAGE_SECRET');
  if (secret) {
    env.STORAGE_SECRET = secret;
  } else {
    const made = await defaults.storageSecret();
    env.STORAGE_SECRET = made.secret;
    secretFrom = made.file ? `kept in ${r.shown(made.file)}` : 'made for this run';
  }
  r.sources.push({
    name: 'storage',
    value: `fs at ${r.shown(storageDir)}, URL signing key ${secretFrom}`,
    from: r.fromOf(['STORAGE_DRIVER', 'STORAGE_DIR', 'STORAGE_SECRET']),
  });
  return storageDir;
}

function resolveTrustProxy(r: Resolution): void {
  const trustProxy = r.given('TRUST_PROXY');
  if (trustProxy) {
    r.env.TRUST_PROXY = trustProxy;
    r.sources.push({ name: 'trust proxy', value: trustProxy, from: 'TRUST_PROXY' });
  } else if (r.mode === 'test') {
    // Tests simulate client addresses with X-Forwarded-For from loopback.
    r.env.TRUST_PROXY = 'loopback';
    r.sources.push({ name: 'trust proxy', value: 'loopback', from: 'default' });
  } else {
    r.sources.push({ name: 'trust proxy', value: 'false (X-Forwarded-For is ignored)', from: 'default' });
  }
}

/** The operator's own provider (PUSHER_*), else the local Soketi when the cluster runs one; resolves with the latter. */
async function resolveRealtime(r: Resolution, defaults: SettingsInput['defaults']): Promise<boolean> {
  const pusherGiven = PUSHER_VARIABLES.filter((name) => r.given(name) !== undefined);
  if (pusherGiven.length > 0) {
    ownRealtimeProvider(r, pusherGiven);
    return false;
  }
  if (defaults.realtime) {
    await localRealtimeProvider(r, defaults.realtime);
    return true;
  }
  r.sources.push({ name: 'realtime', value: 'none (this cluster runs no provider)', from: 'default' });
  return false;
}

function ownRealtimeProvider(r: Resolution, pusherGiven: string[]): void {
  const missing = PUSHER_APP_VARIABLES.filter((name) => r.given(name) === undefined);
  if (missing.length > 0) {
    throw new Error(
      `${pusherGiven.join(', ')} set without ${missing.join(', ')}: set the app's ID, key and secret to use your own realtime provider, or no PUSHER_* for the local Soketi`,
    );
  }
  for (const name of pusherGiven) r.env[name] = r.given(name)!;
  const host = r.given('PUSHER_HOST');
  const tls = ['true', '1'].includes(r.given('PUSHER_USE_TLS') ?? '');
  const where = host
    ? `provider at ${host}:${r.given('PUSHER_PORT') ?? 6001}${tls ? ' over TLS' : ''}`
    : `Pusher Channels, cluster ${r.given('PUSHER_CLUSTER') ?? 'mt1'}`;
  r.sources.push({
    name: 'realtime',
    value: `${where}, app ${r.given('PUSHER_APP_ID')}; no Soketi`,
    from: r.fromOf(PUSHER_VARIABLES),
  });
}

async function localRealtimeProvider(
  r: Resolution,
  realtime: NonNullable<SettingsInput['defaults']['realtime']>,
): Promise<void> {
  const { port } = realtime;
  const app = await realtime.app();
  Object.assign(r.env, {
    PUSHER_APP_ID: app.appId,
    PUSHER_KEY: app.key,
    PUSHER_SECRET: app.secret,
    PUSHER_HOST: '127.0.0.1',
    PUSHER_PORT: String(port),
    PUSHER_USE_TLS: 'false',
  });
  const kept = app.file ? `kept in ${r.shown(app.file)}` : 'made for this run';
  const problem = soketiNodeProblem();
  const value = `Soketi on 127.0.0.1:${port}, clients connect through the gateway (/realtime/ws); app ${app.appId} ${kept}${problem ? `; warning: ${problem}` : ''}`;
  r.sources.push({ name: 'realtime', value, from: 'default' });
}

async function jwtKeys(
  privateKey: string | undefined,
  publicKey: string | undefined,
  fallback: SettingsInput['defaults']['jwtKeys'],
  shown: (dir: string) => string,
): Promise<{ privateKey: string; publicKey: string; shown: string }> {
  if (privateKey && publicKey) return { privateKey, publicKey, shown: 'from the environment' };
  if (privateKey) {
    let derived: string;
    try {
      derived = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
    } catch {
      throw new Error('JWT_PRIVATE_KEY is not a PEM private key (an Ed25519 key in PKCS#8 PEM)');
    }
    return { privateKey, publicKey: derived, shown: 'from the environment, public key derived from the private one' };
  }
  if (publicKey) {
    throw new Error(
      'JWT_PUBLIC_KEY is set without JWT_PRIVATE_KEY, so tokens could not be signed to match it; set both, or neither for keys kept in .wms/jwt',
    );
  }
  const made = await fallback();
  return {
    privateKey: made.privateKey,
    publicKey: made.publicKey,
    shown: made.dir ? `kept in ${shown(made.dir)}` : 'made for this run',
  };
}
