import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import vue from '@vitejs/plugin-vue';

// One build for the whole client (DESIGN.md §2):
// - main: the Electron main process, plus the browser host (electron/web), which runs under plain Node
//   when Electron is missing and for end-to-end tests; both CommonJS.
// - preload: one CommonJS file with no imports but `electron`, so it runs with `sandbox: true`.
// - renderer: the Vue app, served from `app://cercle/` in Electron and over loopback HTTP by the host.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          webhost: resolve(__dirname, 'electron/web/index.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // Sandboxed preloads cannot require npm packages: bundle everything into one file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [vue()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
