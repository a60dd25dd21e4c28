// The database apps that need more than a table (issue 18 item 4): a photo gallery (storage) and
// a live guest book or chat (realtime). Which one a request means, when the project has a database.
import type { KindBlueprint } from '../kinds/kind.js';
import { GALLERY_APP, galleryBlueprint } from './gallery-app.js';
import { GUESTBOOK_APP, guestbookBlueprint } from './guestbook-app.js';

export interface LiveApp {
  readonly live: 'gallery' | 'guestbook';
  readonly table: string;
  readonly words: { readonly app: string; readonly items: string };
  /** The line under the app's name (the page's tagline). */
  readonly tagline: string;
  readonly migrationPath: string;
  readonly migration: string;
}

// Uploads are what make it a storage app: "a photo gallery" alone is a portfolio's section.
const UPLOADS = /\bupload(s|ed|ing)?\b/i;
const PHOTOS = /\b(photos?|pictures?|images?|gallery|album)\b/i;
const GUESTBOOK = /\bguest ?books?\b|\b(live|real[- ]?time) (chat|messages?|wall|feed|comments?)\b|\bchat (room|app)\b.*\b(live|real[- ]?time|updates?)\b|\bupdates? live\b/i;

/** The live app a request asks for, or null. */
export function liveAppFor(prompt: string): LiveApp | null {
  if (UPLOADS.test(prompt) && PHOTOS.test(prompt)) return GALLERY_APP;
  if (GUESTBOOK.test(prompt)) return GUESTBOOK_APP;
  return null;
}

export function liveBlueprint(app: LiveApp): KindBlueprint {
  return app.live === 'gallery' ? galleryBlueprint() : guestbookBlueprint();
}
