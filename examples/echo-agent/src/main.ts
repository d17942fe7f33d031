import { startEchoAgent } from './agent.ts';

// pnpm agent:echo, with WMS_TOKEN set to a workspace token of an agent (and WMS_URL when the gateway is not
// http://localhost:8080). Stops on SIGINT or SIGTERM.

const token = process.env.WMS_TOKEN;
if (!token) {
  console.error(
    'Set WMS_TOKEN to a workspace token of an agent (POST /workspace/tokens; see docs/agents.md in the repository).',
  );
  process.exit(2);
}
const agent = await startEchoAgent({ url: process.env.WMS_URL ?? 'http://localhost:8080', token });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    agent.stop();
    process.exit(0);
  });
}
