import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from '../../app/routes';

describe('assignment routes', () => {
  it.each([
    '/assignments/new/feedback',
    '/assignments/new/grade',
    '/assignments/new/rubric-feedback',
    '/assignments/new/prompt',
    '/assignment/a0000000-0000-4000-8000-000000000001',
  ])('%s is a signed-in page of the app', (path) => {
    const matches = matchRoutes(routes, path) ?? [];
    const leaf = matches.at(-1)?.route;
    expect(leaf?.path).not.toBe('*');
    expect(matches.some((m) => m.route.path === undefined && matches.indexOf(m) > 0)).toBe(true);
  });
});
