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
  ])('%s is one of the app\'s pages', (path) => {
    const leaf = matchRoutes(routes, path)?.at(-1)?.route;
    expect(leaf?.path).toMatch(/^assignments?\//);
  });
});
