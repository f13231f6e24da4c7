import { describe, expect, it } from 'vitest';

/**
 * The lint rule that keeps features apart (design brief: "no imports between features"). A file
 * under src/features/<a>/ may import its own feature, src/lib, src/components and src/testing,
 * never src/features/<b>/: what two features share moves to src/lib or src/components, and the
 * app (src/app) composes features. src/lib and src/components import no feature and not the app.
 * It runs with the unit tests (`npm test`, hence `make test`).
 */

/** Every source file under src/, as text, keyed by its path from the project root (`/src/...`). */
const SOURCES = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!/src/**/*.d.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** The module specifiers a file imports or re-exports (static and dynamic). */
export function importSpecifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*\(?\s*['"]([^'"]+)['"]/g];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1]);
  return found;
}

/** Resolves `specifier` imported by the file at `from` (`/src/...`) to a `/src/...` path, or null for a package. */
export function resolveImport(from: string, specifier: string): string | null {
  if (specifier.startsWith('@/')) return `/src/${specifier.slice(2)}`;
  if (!specifier.startsWith('.')) return null;
  const parts = from.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/** The feature a `/src/...` path belongs to, or null outside src/features. */
function featureOf(path: string): string | null {
  const m = /^\/src\/features\/([^/]+)(?:\/|$)/.exec(path);
  return m ? m[1] : null;
}

/** Imports that break the boundaries, as "file -> specifier". */
export function boundaryViolations(sources: Record<string, string>): string[] {
  const violations: string[] = [];
  for (const [file, source] of Object.entries(sources)) {
    const own = featureOf(file);
    const lowerLayer = file.startsWith('/src/lib/') || file.startsWith('/src/components/');
    for (const specifier of importSpecifiers(source)) {
      const target = resolveImport(file, specifier);
      if (target === null) continue;
      const feature = featureOf(target);
      const crossesFeatures = own !== null && feature !== null && feature !== own;
      const lowerImportsUpper = lowerLayer && (feature !== null || target === '/src/app' || target.startsWith('/src/app/'));
      if (crossesFeatures || lowerImportsUpper) violations.push(`${file} -> ${specifier}`);
    }
  }
  return violations.sort();
}

describe('feature boundaries', () => {
  it('finds no import from one feature into another, nor from src/lib or src/components into a feature', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    expect(boundaryViolations(SOURCES)).toEqual([]);
  });

  it('catches a relative, an aliased and a dynamic import into another feature, and lib importing a feature', () => {
    const sources = {
      '/src/features/tools/components/Page.tsx': [
        "import { ChatView } from '../../chat';",
        "import type { X } from '@/features/results/api/types';",
        "const lazy = import('../../../features/library/components/LibraryPage');",
        "import { api } from '../../../lib/api-client';",
        "import { useCatalog } from '../api/get-catalog';",
        "import Box from '@mui/material/Box';",
      ].join('\n'),
      '/src/features/results/components/review/Notices.tsx': "export { useAppConfig } from '../../../app-config/api/get-app-config';",
      '/src/lib/colors.ts': "import { x } from '../features/results/lib/colors';",
      '/src/app/routes.tsx': "import { ChatView } from '../features/chat';",
    };
    expect(boundaryViolations(sources)).toEqual([
      "/src/features/results/components/review/Notices.tsx -> ../../../app-config/api/get-app-config",
      "/src/features/tools/components/Page.tsx -> ../../../features/library/components/LibraryPage",
      "/src/features/tools/components/Page.tsx -> ../../chat",
      "/src/features/tools/components/Page.tsx -> @/features/results/api/types",
      "/src/lib/colors.ts -> ../features/results/lib/colors",
    ]);
  });
});
