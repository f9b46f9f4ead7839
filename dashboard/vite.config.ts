import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The dashboard is served by the gateway at /dashboard/ from dist/dashboard (npm run build). */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  // `npx vite dashboard`: hot reload, with /graphql (HTTP and WebSocket) proxied to a running gateway.
  server: { proxy: { '/graphql': { target: process.env.GATEWAY_URL ?? 'http://localhost:8080', ws: true } } },
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    // No inline scripts or styles: the gateway's CSP allows only same-origin files.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
