import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'electron-vite';
import vue from '@vitejs/plugin-vue';

// One build for the whole client (DESIGN.md §2):
// - main: the Electron main process, plus the browser host (electron/web), which runs under plain Node
//   when Electron is missing and for end-to-end tests; both CommonJS (`.cjs`, the package being ESM).
// - preload: one CommonJS file with no imports but `electron`, so it runs with `sandbox: true`.
// - renderer: the Vue app, served from `app://cercle/` in Electron and over loopback HTTP by the host.
const root = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(root, 'electron/main/index.ts'),
          webhost: resolve(root, 'electron/web/index.ts'),
          // The embedded operator's process (DESIGN.md §3): its small entry and the operator it loads.
          // Two separate entries, because client code may not import the operator (§2 fences).
          'embedded-child': resolve(root, 'electron/services/embedded/child.ts'),
          'embedded-operator': resolve(root, 'operator/embedded.ts'),
          // The history's import and export jobs run in a worker thread (electron/services/history/jobs.ts).
          'history-worker': resolve(root, 'electron/services/history/worker.ts'),
        },
        // The package is ESM ("type": "module"); the main process stays CommonJS, named .cjs.
        output: { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // Sandboxed preloads cannot require npm packages: bundle everything into one file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [vue()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rollupOptions: { input: { index: resolve(root, 'renderer/index.html') } },
    },
  },
});
