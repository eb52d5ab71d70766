import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VALUE_MODULES } from '../../packages/contracts/src/value-modules';

/** packages/contracts' modules that hold values and no zod schema: a member's first screen loads no zod. */
const CONTRACT_VALUES = new RegExp(`[\\\\/]packages[\\\\/]contracts[\\\\/]src[\\\\/](${VALUE_MODULES.join('|')})\\.ts$`);

const apiTarget = process.env.VITE_API_PROXY ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // Every text file of the build (and of public/) also as .br and .gz at maximum quality, once, at build:
    // the server sends the one the browser accepts without compressing on each request (issue 17).
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(html|css|js|mjs|svg|json|txt)$/, exclude: /\.vite\// }),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: { '/api': apiTarget },
  },
  build: {
    outDir: 'dist',
    // No source maps in the build: served, they would hand anyone our source; the server also refuses any
    // `.map` request (apps/api/src/plugins/web.ts).
    sourcemap: false,
    // Read by scripts/check-bundle-size.mjs: which chunks each route module pulls in (dist/.vite, never served).
    manifest: true,
    rollupOptions: {
      output: {
        // React and React DOM in a chunk of their own: a pre-rendered page evaluates it in one task and the rest of
        // the app in the next (scripts/prerender.mjs), so neither blocks the main thread for long (issue 17: TBT).
        // The icons the app uses (lucide-react, tree-shaken) in one chunk too: left alone, Rolldown gives each
        // icon shared by two screens a chunk of its own, a dozen requests of 200 bytes on the landing page.
        manualChunks(id: string) {
          if (/[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id)) return 'react-dom';
          // Where React DOM's module body runs (src/lib/react-dom-client.ts): a step of its own.
          if (/[\\/]src[\\/]lib[\\/]react-dom-client\.ts$/.test(id)) return 'react-dom-client';
          // The libraries every screen starts with, a chunk each, so each is evaluated in a step of its own too.
          if (/[\\/]node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/.test(id)) return 'router';
          if (/[\\/]node_modules[\\/]@tanstack[\\/]/.test(id)) return 'query';
          if (/[\\/]node_modules[\\/](react-hot-toast|goober)[\\/]/.test(id)) return 'toast';
          if (/[\\/]node_modules[\\/]lucide-react[\\/]/.test(id)) return 'icons';
          // The contracts' values without schemas (packages/contracts/src/index.ts): one small chunk, not six.
          if (CONTRACT_VALUES.test(id)) return 'contract-values';
          return undefined;
        },
      },
    },
  },
});
