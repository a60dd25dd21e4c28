import { type LoaderFunctionArgs, data } from 'react-router-dom';

/** SPEC §8 routing: a page whose address fails validation is a 404 with this message. */
export function pageNotFoundMessage(path: string): string {
  return `Page Not Found: ${path}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Route loader of the project pages (/builder, /creation, /wizard): a project id that cannot be
 * one (ids are UUIDs) never reaches the page — the router shows the 404 'Page Not Found: {path}'.
 */
export function requireProjectIdParam({ params, request }: Pick<LoaderFunctionArgs, 'params' | 'request'>): null {
  if (!UUID.test(params['projectId'] ?? '')) throw data(pageNotFoundMessage(new URL(request.url).pathname), { status: 404 });
  return null;
}

/** /creation/new turns an idea into a new project (NEW_PROJECT_PATH): 'new' is a valid id there. */
export function requireCreationParam({ params, request }: Pick<LoaderFunctionArgs, 'params' | 'request'>): null {
  if (params['projectId'] === 'new') return null;
  return requireProjectIdParam({ params, request });
}
