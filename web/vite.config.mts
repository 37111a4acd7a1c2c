import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The console: built into web/dist (served by the API at `/`), or run with hot reload by
 * `npm run dev:web`, which sends API calls to the local API (VITE_API_URL, default :3000).
 */
export default defineConfig({
  root: here,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    // Hashed file names under /assets/: the API serves them as immutable.
    assetsDir: 'assets',
    // Inline data: URLs would need a looser Content-Security-Policy.
    assetsInlineLimit: 0,
  },
  server: {
    port: 5173,
    proxy: {
      '/v1': { target: process.env.VITE_API_URL ?? 'http://127.0.0.1:3000', changeOrigin: false },
    },
  },
});
