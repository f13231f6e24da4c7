import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_TYPES, assignmentTypeInfo, isAssignmentType, newAssignmentPath } from '../../lib/assignment-type';
import { assignmentRoutes, processes } from '.';

/** Every non-test source file under src/, as text, keyed by its path (`/src/...`). */
const SOURCES = import.meta.glob<string>(
  ['/src/**/*.{ts,tsx}', '!/src/**/*.test.{ts,tsx}', '!/src/**/testing/**', '!/src/testing/**', '!/src/**/test-utils.tsx'],
  { query: '?raw', import: 'default', eager: true },
);

/** Where a type's name may decide behaviour: its info, its module, and the registries listing them. */
const REGISTRY = [/^\/src\/lib\/assignment-type\.ts$/, /^\/src\/lib\/assignment-types\//, /^\/src\/app\/processes\//];

/** A comparison with, or a `case` of, an assignment type's name: a branch on the type. */
const TYPE_BRANCH = new RegExp(`(?:[!=]==\\s*|case\\s+)['"](${['grade', 'feedback', 'rubric-feedback', 'prompt'].join('|')})['"]`);

describe('assignment-type modules', () => {
  it('registers one module per assignment type, carrying that type’s info', () => {
    expect(ASSIGNMENT_TYPES).toEqual(['grade', 'feedback', 'rubric-feedback', 'prompt']);
    for (const type of ASSIGNMENT_TYPES) {
      const module = processes.get(type);
      expect(module?.type).toBe(type);
      expect(module?.info).toBe(assignmentTypeInfo(type));
    }
    expect(processes.all().map((m) => m.type)).toEqual(ASSIGNMENT_TYPES);
  });

  it('knows no other type: unknown names find no module and no info', () => {
    for (const name of ['essay', '', 'constructor', '__proto__', 'toString']) {
      expect(isAssignmentType(name)).toBe(false);
      expect(processes.get(name)).toBeUndefined();
      expect(assignmentTypeInfo(name)).toBeUndefined();
    }
  });

  it("routes each type's creation wizard from its module", () => {
    const paths = assignmentRoutes.map((r) => `/${r.path}`);
    for (const type of ASSIGNMENT_TYPES) expect(paths).toContain(newAssignmentPath(type));
  });

  it('finds no branch on an assignment type’s name outside its info and its module', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    const branches = Object.entries(SOURCES)
      .filter(([file]) => !REGISTRY.some((allowed) => allowed.test(file)))
      .flatMap(([file, source]) =>
        source.split('\n').flatMap((line, i) => (TYPE_BRANCH.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(branches).toEqual([]);
  });
});
