/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin, type ProxyOptions } from 'vite';

/** Backend the dev server forwards to unless VITE_API_PROXY says otherwise. */
const DEFAULT_API_TARGET = 'http://127.0.0.1:8080';

/** Paths served by the Go backend rather than by Vite. */
const BACKEND_PATHS = ['/api', '/healthz', '/files'];

/**
 * What nearly every signed-in page draws besides the entry: MUI's form field (TextField, with its
 * select, menu, popover and modal), menu items, lists, chips, cards, skeletons, checkboxes and
 * react-query's mutations. Bundled with the signed-in layout (below), as is every icon that three
 * or more modules import (an icon is a few hundred bytes: alone in a file, its gzip costs as much).
 */
const SIGNED_IN_KIT = [
  'TextField',
  'MenuItem',
  'ListItemIcon',
  'ListItemText',
  'Divider',
  'Chip',
  'Skeleton',
  'Card',
  'CardContent',
  'Checkbox',
].map((name) => `/node_modules/@mui/material/${name}/index.mjs`).concat('/node_modules/@tanstack/react-query/build/modern/useMutation.js');

/**
 * The signed-in pages' common modules in one chunk (`app`): what `src/app/routes/AppLayout.tsx`
 * imports statically, directly or not, and {@link SIGNED_IN_KIT} with its imports, minus what the
 * entry has. Every signed-in page loads the layout and almost all of the kit; left to Rolldown they
 * were ~40 files of a few hundred bytes, each gzipped alone, which cost a page like the
 * assignment's ~15 kB (docs/performance.md, "First load"). The set is read from the module graph
 * once it is built (`buildEnd`), so it follows the code.
 */
function signedInChunk(): { plugin: Plugin; test: (id: string) => boolean } {
  const members = new Set<string>();
  const plugin: Plugin = {
    name: 'markwell-signed-in-chunk',
    buildEnd() {
      members.clear();
      const ids = [...this.getModuleIds()];
      const closure = (start: string | undefined) => {
        const seen = new Set<string>();
        const todo = start ? [start] : [];
        for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
          if (seen.has(id)) continue;
          seen.add(id);
          todo.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      const layout = ids.find((id) => id.endsWith('/src/app/routes/AppLayout.tsx'));
      const entry = closure(ids.find((id) => id.endsWith('/src/main.tsx')));
      const kit = ids.filter(
        (id) =>
          SIGNED_IN_KIT.some((path) => id.endsWith(path)) ||
          (id.includes('/node_modules/@mui/icons-material/') && (this.getModuleInfo(id)?.importers.length ?? 0) >= 3),
      );
      // The layout module itself stays the route's own chunk (the manifest names it, preload.go and
      // cmd/bench/firstload.go look it up).
      for (const start of [layout, ...kit]) for (const id of closure(start)) if (id !== layout && !entry.has(id)) members.add(id);
    },
  };
  return { plugin, test: (id) => members.has(id) };
}

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), '');
  const target = env.VITE_API_PROXY || DEFAULT_API_TARGET;
  // Keep the browser's Host header so the backend's same-origin and cookie checks see the
  // address the teacher actually uses.
  const proxy: Record<string, ProxyOptions> = Object.fromEntries(
    BACKEND_PATHS.map((path) => [path, { target, changeOrigin: false }]),
  );

  const signedIn = signedInChunk();

  return {
    plugins: [react(), signedIn.plugin],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // .vite/manifest.json: each chunk's static and dynamic imports, from which `make bench`
      // (cmd/bench firstload) adds up what each route downloads first. The server never serves it.
      manifest: true,
      // React, ReactDOM and the router change less often than Markwell's code and every route needs
      // all of them: one chunk that stays cached across releases. MUI and the rest are left to
      // Rolldown, which splits them by the routes that use them.
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 2 },
              // What the entry imports statically loads on every route anyway: one chunk rather than
              // twenty small ones (each gzipped alone, 21 files cost ~7 kB more than one).
              { name: 'shell', tags: ['$initial'], priority: 1 },
              { name: 'app', test: signedIn.test },
            ],
          },
        },
      },
    },
    server: { proxy },
    preview: { proxy },
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/testing/setup.ts'],
      include: ['src/**/*.test.{ts,tsx}'],
      restoreMocks: true,
      // Room for a busy 2-core CI machine; a test that hangs still fails.
      testTimeout: 20000,
      // One worker per core: Vitest's default leaves one core idle, which on the 2-core CI machine
      // made the unit tests take 7 min 50 s instead of 4 min 57 s (`time npx vitest run`).
      maxWorkers: '100%',
      // Test files share one module graph per worker instead of importing React, MUI and the app
      // again for each of the ~80 files: 206 s → about a minute on the 2-core machine. Nothing here
      // mocks modules (no vi.mock); the per-file state (styles, MSW, emotion's cache) is reset in
      // src/testing/setup.ts and styles.ts.
      isolate: false,
    },
  };
});
