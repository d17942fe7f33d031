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
  // An empty variable counts as unset: the services would refuse it, and `FOO= pnpm start` means "no FOO".
  const given = (name: string): string | undefined =>
    mode === 'dev' && operatorEnv[name] ? operatorEnv[name] : undefined;
  const fromOf = (names: string[]) => names.filter((name) => given(name) !== undefined).join(', ') || 'default';
  const shown = (dir: string) => {
    const relative = path.relative(root, dir);
    return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : dir;
  };
  const env: Record<string, string> = {};
  const sources: SettingSource[] = [];

  const publicUrl = given('PUBLIC_URL') ?? defaults.publicUrl;
  env.PUBLIC_URL = publicUrl;
  sources.push({ name: 'public URL', value: publicUrl, from: fromOf(['PUBLIC_URL']) });

  const relay = given('SMTP_URL');
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
    const files = catcher.dir ? `, files ${shown(catcher.dir)}/*.eml` : '';
    sources.push({
      name: 'mail',
      value: `mail catcher, inbox ${catcher.inboxUrl} (SMTP ${catcher.smtpUrl})${files}`,
      from: 'default',
    });
  }
  env.MAIL_FROM = given('MAIL_FROM') ?? DEFAULT_MAIL_FROM;
  sources.push({ name: 'mail from', value: env.MAIL_FROM, from: fromOf(['MAIL_FROM']) });

  const driver = given('STORAGE_DRIVER') ?? 'fs';
  env.STORAGE_DRIVER = driver;
  let storageDir: string | undefined;
  if (driver === 'fs') {
    storageDir = path.resolve(root, given('STORAGE_DIR') ?? defaults.storageDir);
    env.STORAGE_DIR = storageDir;
    let secretFrom = 'from STORAGE_SECRET';
    const secret = given('STORAGE_SECRET');
    if (secret) {
      env.STORAGE_SECRET = secret;
    } else {
      const made = await defaults.storageSecret();
      env.STORAGE_SECRET = made.secret;
      secretFrom = made.file ? `kept in ${shown(made.file)}` : 'made for this run';
    }
    sources.push({
      name: 'storage',
      value: `fs at ${shown(storageDir)}, URL signing key ${secretFrom}`,
      from: fromOf(['STORAGE_DRIVER', 'STORAGE_DIR', 'STORAGE_SECRET']),
    });
  } else if (driver === 's3') {
    // The S3_* variables reach the services with the rest of the environment; an fs directory or key would only confuse.
    const endpoint = given('S3_ENDPOINT');
    const publicS3 = given('S3_PUBLIC_URL');
    const value = `s3 at ${endpoint ? redact(endpoint) : '(S3_ENDPOINT unset)'}, bucket ${given('S3_BUCKET') ?? 'wms'}${publicS3 ? `, clients use ${redact(publicS3)}` : ''}`;
    sources.push({
      name: 'storage',
      value,
      from: fromOf([
        'STORAGE_DRIVER',
        'S3_ENDPOINT',
        'S3_ACCESS_KEY',
        'S3_SECRET_KEY',
        'S3_REGION',
        'S3_BUCKET',
        'S3_PUBLIC_URL',
      ]),
    });
  } else {
    sources.push({ name: 'storage', value: `"${driver}" (the services accept fs or s3)`, from: 'STORAGE_DRIVER' });
  }

  const jwt = await jwtKeys(given('JWT_PRIVATE_KEY'), given('JWT_PUBLIC_KEY'), defaults.jwtKeys, shown);
  env.JWT_PRIVATE_KEY = jwt.privateKey;
  env.JWT_PUBLIC_KEY = jwt.publicKey;
  sources.push({ name: 'JWT keys', value: jwt.shown, from: fromOf(['JWT_PRIVATE_KEY', 'JWT_PUBLIC_KEY']) });

  const trustProxy = given('TRUST_PROXY');
  if (trustProxy) {
    env.TRUST_PROXY = trustProxy;
    sources.push({ name: 'trust proxy', value: trustProxy, from: 'TRUST_PROXY' });
  } else if (mode === 'test') {
    // Tests simulate client addresses with X-Forwarded-For from loopback.
    env.TRUST_PROXY = 'loopback';
    sources.push({ name: 'trust proxy', value: 'loopback', from: 'default' });
  } else {
    sources.push({ name: 'trust proxy', value: 'false (X-Forwarded-For is ignored)', from: 'default' });
  }

  const pusherGiven = PUSHER_VARIABLES.filter((name) => given(name) !== undefined);
  let localRealtime = false;
  if (pusherGiven.length > 0) {
    const missing = PUSHER_APP_VARIABLES.filter((name) => given(name) === undefined);
    if (missing.length > 0) {
      throw new Error(
        `${pusherGiven.join(', ')} set without ${missing.join(', ')}: set the app's ID, key and secret to use your own realtime provider, or no PUSHER_* for the local Soketi`,
      );
    }
    for (const name of pusherGiven) env[name] = given(name)!;
    const host = given('PUSHER_HOST');
    const tls = ['true', '1'].includes(given('PUSHER_USE_TLS') ?? '');
    const where = host
      ? `provider at ${host}:${given('PUSHER_PORT') ?? 6001}${tls ? ' over TLS' : ''}`
      : `Pusher Channels, cluster ${given('PUSHER_CLUSTER') ?? 'mt1'}`;
    sources.push({
      name: 'realtime',
      value: `${where}, app ${given('PUSHER_APP_ID')}; no Soketi`,
      from: fromOf(PUSHER_VARIABLES),
    });
  } else if (defaults.realtime) {
    const { port } = defaults.realtime;
    const app = await defaults.realtime.app();
    Object.assign(env, {
      PUSHER_APP_ID: app.appId,
      PUSHER_KEY: app.key,
      PUSHER_SECRET: app.secret,
      PUSHER_HOST: '127.0.0.1',
      PUSHER_PORT: String(port),
      PUSHER_USE_TLS: 'false',
    });
    localRealtime = true;
    const kept = app.file ? `kept in ${shown(app.file)}` : 'made for this run';
    const problem = soketiNodeProblem();
    const value = `Soketi on 127.0.0.1:${port}, clients connect through the gateway (/realtime/ws); app ${app.appId} ${kept}${problem ? `; warning: ${problem}` : ''}`;
    sources.push({ name: 'realtime', value, from: 'default' });
  } else {
    sources.push({ name: 'realtime', value: 'none (this cluster runs no provider)', from: 'default' });
  }

  return {
    env,
    publicUrl,
    smtpUrl: env.SMTP_URL,
    inboxUrl,
    mailDir,
    storageDir,
    jwt: { privateKey: jwt.privateKey, publicKey: jwt.publicKey },
    localRealtime,
    sources,
  };
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
