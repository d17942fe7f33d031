// Prints the Secret "wms-dev" that ci/tilt-values.yaml reads: the addresses of the in-cluster development
// dependencies, their development credentials and a JWT key pair. The chart itself never holds a secret; the Tiltfile
// applies this output beside it. The values are kept in a file (default .wms/tilt-secret.json, or the first argument)
// so that tokens and the realtime app outlive a restart of Tilt.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const file = process.argv[2] ?? fileURLToPath(new URL('../../../.wms/tilt-secret.json', import.meta.url));

function fresh() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    // The Service names of ci/tilt-values.yaml (fullnameOverride: wms) and the dev templates' ports.
    DATABASE_URL: 'postgres://postgres@wms-postgres:5432/wms',
    REDIS_URL: 'redis://wms-redis:6379',
    SMTP_URL: 'smtp://wms-mailpit:1025',
    S3_ACCESS_KEY: 'wms-dev',
    S3_SECRET_KEY: randomBytes(16).toString('hex'),
    // Begins with letters: Soketi reads its variables as JSON, and a secret that looks like a number crashes it.
    PUSHER_SECRET: `wms-${randomBytes(24).toString('hex')}`,
    JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

let values;
if (existsSync(file)) {
  values = JSON.parse(readFileSync(file, 'utf8'));
} else {
  values = fresh();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(values, null, 2)}\n`, { mode: 0o600 });
}

// JSON is YAML: k8s_yaml(local('node charts/wms/ci/tilt-secret.mjs')) and kubectl apply -f - both take it.
process.stdout.write(
  `${JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'wms-dev', labels: { 'app.kubernetes.io/part-of': 'wms' } }, type: 'Opaque', stringData: values }, null, 2)}\n`,
);
