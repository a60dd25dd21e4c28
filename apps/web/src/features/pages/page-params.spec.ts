import { describe, expect, it } from '@jest/globals';
import { createMemoryRouter } from 'react-router-dom';
import { requireCreationParam, requireProjectIdParam } from './page-params';
import { errorPageTitle } from './status-pages';

/** The routes' own loader in a real (memory) router: what the error page receives for a path. */
async function routeError(path: string): Promise<unknown> {
  const router = createMemoryRouter(
    ['builder', 'creation', 'wizard'].map((page) => ({ path: `/${page}/:projectId`, loader: page === 'creation' ? requireCreationParam : requireProjectIdParam, element: null })),
    { initialEntries: [path] },
  );
  if (!router.state.initialized) await new Promise<void>((resolve) => router.subscribe((state) => state.initialized && resolve()));
  const errors = router.state.errors;
  router.dispose();
  return errors === null ? null : Object.values(errors)[0];
}

describe("project pages: 'Page Not Found: {path}' (SPEC §8 page validation failure)", () => {
  it('lets a project id through', async () => {
    expect(await routeError('/builder/0f8fad5b-d9cb-469f-a165-70867728950e')).toBeNull();
  });

  it('/creation/new makes a project of the landing idea ("new" is not a 404 there, and only there)', async () => {
    expect(await routeError('/creation/new')).toBeNull();
    for (const path of ['/builder/new', '/wizard/new']) expect(await routeError(path)).toMatchObject({ status: 404 });
  });

  it('a malformed project id is a 404 whose error page reads the SPEC message with the path', async () => {
    for (const path of ['/builder/not-a-project', '/creation/1234', '/wizard/0f8fad5b']) {
      const error = await routeError(path);
      expect(error).toMatchObject({ status: 404 });
      expect(errorPageTitle(error)).toBe(`Page Not Found: ${path}`);
    }
  });
});
