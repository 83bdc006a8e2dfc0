import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    // node_modules stay external in main (keytar is native); our own code, src/shared and src/server are bundled.
    build: { rollupOptions: { input: { index: resolve('src/main/index.ts') } } },
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
