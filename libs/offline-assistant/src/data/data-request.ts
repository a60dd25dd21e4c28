// How a request for a data-backed app meets the project's database: built when one is connected,
// declined (free, before any credit) when none is, never silently built without sign-in.
import type { AssistantDatabase, FileOperation } from '@kiln/domain';
import type { AppContext } from '../app-generator.js';
import type { OfflineRequest } from '../offline-request.js';
import { SUPABASE_PACKAGE } from './data-app.js';
import { dataTableFor } from './data-tables.js';
import { liveAppFor } from './live-apps.js';

/**
 * Why a build is declined, or null: it asks for people's own data behind a sign-in (a todo list,
 * notes, habits, bookings) and the project has no database to keep it in.
 */
export function noDatabaseReason(request: OfflineRequest, prompt: string, database: AssistantDatabase | undefined): string | null {
  if (request.mode !== 'build' || database?.connected) return null;
  const live = liveAppFor(prompt);
  if (live !== null) {
    const needs = live.live === 'gallery' ? 'a database with file storage for the photos' : 'a database for the entries and its live updates';
    return (
      `A ${live.words.app} needs ${needs}, and this project has none yet. ` +
      'Connect one first (the Database panel: “Connect a database”), then send this request again: I will build it with sign-in, its migration and row-level security.'
    );
  }
  const table = dataTableFor(prompt, request.spec.kind);
  if (table === null) return null;
  return (
    `A ${table.words.app} where each person signs in and keeps their own ${table.words.items} needs a database, and this project has none yet. ` +
    'Connect one first (the Database panel: “Connect a database”), then send this request again: I will build it with sign-in, the data in the database and its migration. ' +
    `Without a database I can build a ${table.words.app} that keeps its ${table.words.items} in this browser only: ask for that without the sign-in.`
  );
}

/** The client library added to package.json with a data-backed app (when it is not there yet). */
export function dataDependencies(app: AppContext, current: ReadonlyMap<string, string>): FileOperation[] {
  const manifest = current.get('package.json');
  if (app.data === null || manifest === undefined) return [];
  try {
    const parsed = JSON.parse(manifest) as { dependencies?: Record<string, unknown> };
    if (parsed.dependencies?.[SUPABASE_PACKAGE.name] !== undefined) return [];
  } catch {
    return [];
  }
  return [{ type: 'add_dependency', name: SUPABASE_PACKAGE.name, version: SUPABASE_PACKAGE.version }];
}
