import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    // keytar stays external in main (it is native: electron-builder.yml unpacks and rebuilds it); everything
    // else main uses is bundled, zod and p-queue included, so the installed app carries no other node_modules.
    build: {
      externalizeDeps: { exclude: ['zod', 'p-queue'] },
      rollupOptions: { input: { index: resolve('src/main/index.ts') } },
    },
  },
  preload: {
    // A sandboxed preload can only require Electron's renderer modules: bundle every
    // dependency into one CommonJS file.
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', inlineDynamicImports: true },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    base: './',
    build: { rollupOptions: { input: { index: resolve('src/renderer/index.html') } } },
    plugins: [react()],
    // the import reader runs in a same-origin module worker (worker-src 'self'): an ES module, never a blob: URL
    worker: { format: 'es' },
  },
});
