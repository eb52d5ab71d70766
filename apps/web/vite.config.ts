import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';

const apiTarget = process.env.VITE_API_PROXY ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
  },
});
