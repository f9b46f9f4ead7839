import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The dashboard is served by the gateway at /dashboard/ from dist/dashboard (npm run build). */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    // No inline scripts or styles: the gateway's CSP allows only same-origin files.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
