import { describe, expect, it } from '@jest/globals';
import { mimeAllowed, parseBucketCreate, parseBucketUpdate, parseFileSizeLimit } from './storage-bucket.js';
import { checkSignedClaims, parseExpiresIn } from './signed-object-token.js';
import { STORAGE_DEFAULTS, parseCacheControl, parseListOptions, parseUpsert } from './storage-list.js';
import { DEFAULT_STORAGE_PLAN_LIMITS, fileLimitOf, fitsStorageQuota, storageLimitsFor } from './storage-limits.js';

const MAX = 50 * 1024 * 1024;

describe('storage buckets (SPEC entity "Storage bucket")', () => {
  it('creates with defaults: private, no size limit, any type', () => {
    expect(parseBucketCreate({ id: 'avatars', name: 'avatars' }, MAX)).toEqual({
      ok: true,
      value: { id: 'avatars', name: 'avatars', public: false, file_size_limit: null, allowed_mime_types: null },
    });
  });

  it('reads sizes and MIME patterns', () => {
    const made = parseBucketCreate({ id: 'photos', public: true, file_size_limit: '1MB', allowed_mime_types: ['image/*', 'Application/PDF'] }, MAX);
    expect(made).toMatchObject({ ok: true, value: { public: true, file_size_limit: 1024 * 1024, allowed_mime_types: ['image/*', 'application/pdf'] } });
    expect(parseFileSizeLimit(2048, MAX)).toEqual({ ok: true, value: 2048 });
    expect(parseFileSizeLimit('100kb', MAX)).toEqual({ ok: true, value: 102400 });
  });

  it.each([
    [{ id: '' }, /Bucket name invalid/],
    [{ id: '../x' }, /Bucket name invalid/],
    [{ id: 'a/b' }, /Bucket name invalid/],
    [{ id: 'x'.repeat(64) }, /Bucket name invalid/],
    [{ id: 'public' }, /reserved/],
    [{ id: 'Sign' }, /reserved/],
    [{ id: 'ok', public: 'yes' }, /public/],
    [{ id: 'ok', file_size_limit: -1 }, /file_size_limit/],
    [{ id: 'ok', file_size_limit: '1TB' }, /file_size_limit/],
    [{ id: 'ok', file_size_limit: MAX + 1 }, /global limit/],
    [{ id: 'ok', allowed_mime_types: 'image/png' }, /allowed_mime_types/],
    [{ id: 'ok', allowed_mime_types: ['image'] }, /not a MIME type/],
    [{ id: 'ok', allowed_mime_types: ['*/*x'] }, /not a MIME type/],
  ])('refuses %j', (body, message) => {
    const made = parseBucketCreate(body, MAX);
    expect(made.ok).toBe(false);
    if (!made.ok) {
      expect(made.error.status).toBe(400);
      expect(made.error.message).toMatch(message);
    }
  });

  it('updates only the fields given; null clears a limit', () => {
    expect(parseBucketUpdate({ public: true }, MAX)).toEqual({ ok: true, value: { public: true } });
    expect(parseBucketUpdate({ file_size_limit: null, allowed_mime_types: null }, MAX)).toEqual({ ok: true, value: { file_size_limit: null, allowed_mime_types: null } });
  });

  it('matches MIME types exactly or by type/*', () => {
    expect(mimeAllowed('image/png', ['image/*'])).toBe(true);
    expect(mimeAllowed('IMAGE/PNG; q=1', ['image/png'])).toBe(true);
    expect(mimeAllowed('text/plain;charset=UTF-8', ['image/*'])).toBe(false);
    expect(mimeAllowed('imagex/png', ['image/*'])).toBe(false);
    expect(mimeAllowed('anything/at-all', null)).toBe(true);
  });
});

describe('storage defaults (SPEC "Storage": list limit 100, offset 0, sorted by name ascending; cache-control 3600, upsert off)', () => {
  it('fills a list request', () => {
    expect(parseListOptions({})).toEqual({ ok: true, value: { prefix: '', limit: 100, offset: 0, sortColumn: 'name', sortOrder: 'asc', search: '' } });
    expect(STORAGE_DEFAULTS).toMatchObject({ listLimit: 100, listOffset: 0, sortColumn: 'name', sortOrder: 'asc', cacheControlSeconds: 3600, upsert: false });
  });

  it('reads upload options', () => {
    expect(parseCacheControl(undefined)).toBe('3600');
    expect(parseCacheControl('max-age=60')).toBe('60');
    expect(parseCacheControl('120')).toBe('120');
    expect(parseUpsert(undefined)).toBe(false);
    expect(parseUpsert('true')).toBe(true);
  });

  it('refuses bad list options', () => {
    expect(parseListOptions({ limit: 0 }).ok).toBe(false);
    expect(parseListOptions({ sortBy: { column: 'id; drop' } }).ok).toBe(false);
    expect(parseListOptions({ prefix: '../x' }).ok).toBe(false);
  });
});

describe('storage quota per plan', () => {
  it('gives the free plan the free quota and caps files globally', () => {
    expect(storageLimitsFor('free', DEFAULT_STORAGE_PLAN_LIMITS)).toBe(DEFAULT_STORAGE_PLAN_LIMITS.free);
    expect(storageLimitsFor('pro_monthly', DEFAULT_STORAGE_PLAN_LIMITS)).toBe(DEFAULT_STORAGE_PLAN_LIMITS.paid);
    expect(fitsStorageQuota(90, 10, 20, { quotaBytes: 100 })).toBe(true);
    expect(fitsStorageQuota(90, 0, 20, { quotaBytes: 100 })).toBe(false);
    expect(fileLimitOf(null, 50)).toBe(50);
    expect(fileLimitOf(10, 50)).toBe(10);
    expect(fileLimitOf(100, 50)).toBe(50);
  });
});

describe('signed object tokens', () => {
  const claims = { url: 'b/a.txt', purpose: 'download', role: 'anon', iat: 100, exp: 160 };
  it('allow their object and purpose until they expire', () => {
    expect(checkSignedClaims(claims, 'b', 'a.txt', 'download', 159).ok).toBe(true);
    expect(checkSignedClaims(claims, 'b', 'a.txt', 'download', 160)).toMatchObject({ ok: false, error: { message: 'The signed URL has expired' } });
    expect(checkSignedClaims(claims, 'b', 'other.txt', 'download', 120)).toMatchObject({ ok: false, error: { message: 'The token is for another object' } });
    expect(checkSignedClaims(claims, 'b', 'a.txt', 'upload', 120).ok).toBe(false);
  });
  it('take 1 s to a week', () => {
    expect(parseExpiresIn(60).ok).toBe(true);
    expect(parseExpiresIn(0).ok).toBe(false);
    expect(parseExpiresIn('60').ok).toBe(false);
  });
});
