// For projects whose specs start real things (a whole API app with a fresh schema, PostgreSQL,
// bubblewrap sandboxes, Vite): 60 s per test and hook instead of Jest's 5 s, which fails correct
// specs while the whole suite shares two cores; a stuck one still fails. (Jest's `testTimeout`
// is a global option, ignored in a project's config: this runs in each test file of the project.)
import { jest } from '@jest/globals';

jest.setTimeout(60_000);
