import type { DevCluster } from './cluster.ts';

/** What `pnpm start` prints once the cluster is up: where to reach it, and each setting with where it came from. */
export function bannerLines(cluster: Pick<DevCluster, 'gatewayUrl' | 'settings' | 'logDir'>): string[] {
  // The web client at the public URL: the address its realtime connection and mailed links use too.
  const publicUrl = cluster.settings.find((s) => s.name === 'public URL')?.value ?? cluster.gatewayUrl;
  const rows: Array<[string, string]> = [
    ['gateway', cluster.gatewayUrl],
    ['web app', `${publicUrl.replace(/\/+$/, '')}/app/`],
    ...cluster.settings.map(({ name, value, from }): [string, string] => [
      name,
      `${value}  (${from === 'default' ? 'default' : `from ${from}`})`,
    ]),
  ];
  if (cluster.logDir) rows.push(['logs', cluster.logDir]);
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return [
    '',
    'wms is running',
    ...rows.map(([name, text]) => `  ${name.padEnd(width)}${text}`),
    'A process that exits is restarted. Ctrl-C stops everything.',
    '',
  ];
}
