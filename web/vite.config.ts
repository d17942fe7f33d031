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
    // Everything but the app itself (Vite serves /app/ and its own files under it) goes to the gateway, its websocket
    // too: the API, the account pages (/verify-email, /invite), /storage downloads.
    proxy: { '^/(?!app(/|$))': { target: gateway, changeOrigin: true, ws: true } },
  },
});
