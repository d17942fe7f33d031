import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Starts the test cluster (test/cluster.ts) and hands its addresses to the tests (WMS_GATEWAY_URL, WMS_PUBLIC_URL, WMS_INBOX_URL). */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/cluster.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    exited.then(([code]) => Promise.reject(new Error(`the test cluster exited (${String(code)}) before starting`))),
  ]);
  const { gatewayUrl, publicUrl, inboxUrl } = JSON.parse(first) as Record<string, string>;
  process.env.WMS_GATEWAY_URL = gatewayUrl;
  process.env.WMS_PUBLIC_URL = publicUrl;
  process.env.WMS_INBOX_URL = inboxUrl;
  return async () => {
    child.kill('SIGTERM');
    await exited;
  };
}
