import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built to static files the gateway serves at /app/; `pnpm dev:web` serves them with hot reload and sends the API
// calls to a running cluster's gateway (WMS_GATEWAY_URL, by default `pnpm start`'s).
const gateway = process.env.WMS_GATEWAY_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/app/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    proxy: Object.fromEntries(
      ['/auth', '/workspaces', '/workspace', '/conversations', '/channels', '/realtime', '/events'].map((path) => [
        path,
        { target: gateway, changeOrigin: true, ws: path === '/realtime' },
      ]),
    ),
  },
});
