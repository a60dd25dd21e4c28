import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InvalidObjectKey } from '@kiln/domain';
import { objectStoreContract } from '@kiln/domain/contracts';
import { FilesystemObjectStore, fsName } from './filesystem-object-store.adapter.js';

const text = (value: string) => new Uint8Array(Buffer.from(value));
const str = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString();

objectStoreContract('FilesystemObjectStore', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'kiln-objects-'));
  await writeFile(path.join(dir, 'a-file'), 'not a folder');
  return {
    store: new FilesystemObjectStore(path.join(dir, 'objects')),
    // A root under a file can never be created.
    unreachable: new FilesystemObjectStore(path.join(dir, 'a-file', 'objects')),
    close: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('FilesystemObjectStore on disk', () => {
  let dir: string;
  let root: string;
  let outside: string;
  let store: FilesystemObjectStore;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kiln-objects-'));
    root = path.join(dir, 'objects');
    outside = path.join(dir, 'outside');
    await mkdir(outside);
    store = new FilesystemObjectStore(root);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('keeps an object and the objects under its key side by side', async () => {
    await store.put('lay/a', text('a'), 'text/plain');
    await store.put('lay/a/b', text('b'), 'image/png');
    expect(await readdir(path.join(root, 'lay'))).toEqual(expect.arrayContaining(['a~obj', 'a']));
    await store.deletePrefix('lay/a');
    expect(str((await store.get('lay/a'))?.bytes)).toBe('a');
    expect(await store.get('lay/a/b')).toBeNull();
  });

  it('stores a segment too long for a file name under a shortened name, distinct from its neighbours', async () => {
    const long1 = `${'x'.repeat(250)}1`;
    const long2 = `${'x'.repeat(250)}2`;
    await store.put(`long/${long1}/${long1}`, text('one'), 'text/plain');
    await store.put(`long/${long2}/${long2}`, text('two'), 'text/plain');
    expect(str((await store.get(`long/${long1}/${long1}`))?.bytes)).toBe('one');
    expect(str((await store.get(`long/${long2}/${long2}`))?.bytes)).toBe('two');
    expect(fsName(long1)).not.toBe(fsName(long2));
    expect(fsName(long1).length).toBeLessThan(200);
  });

  describe('never follows a symbolic link planted inside the root', () => {
    beforeAll(async () => {
      await writeFile(path.join(outside, 'secret~obj'), '{"contentType":"text/plain"}\nsecret');
      await writeFile(path.join(outside, 'victim'), 'untouched');
      await mkdir(path.join(root, 'planted'), { recursive: true });
      // A folder link, and an object file that links to a file outside.
      await symlink(outside, path.join(root, 'planted', 'dir'));
      await symlink(path.join(outside, 'victim'), path.join(root, 'planted', 'file~obj'));
      await symlink(path.join(outside, 'secret~obj'), path.join(root, 'planted', 'secret~obj'));
    });

    it('reading through a linked folder or a linked object file rejects', async () => {
      await expect(store.get('planted/dir/secret')).rejects.toThrow(/symbolic link/);
      await expect(store.get('planted/secret')).rejects.toThrow(/symbolic link/);
      await expect(store.copy('planted/secret', 'planted/copied')).rejects.toThrow(/symbolic link/);
    });

    it('writing through a linked folder rejects and writes nothing outside', async () => {
      await expect(store.put('planted/dir/new', text('x'), 'text/plain')).rejects.toThrow(/symbolic link/);
      await expect(store.put('planted/dir/deeper/new', text('x'), 'text/plain')).rejects.toThrow(/symbolic link/);
      expect((await readdir(outside)).sort()).toEqual(['secret~obj', 'victim']);
    });

    it('writing over a linked object file replaces the link, not its target', async () => {
      await store.put('planted/file', text('mine'), 'text/plain');
      expect(str((await store.get('planted/file'))?.bytes)).toBe('mine');
      expect(await readFile(path.join(outside, 'victim'), 'utf8')).toBe('untouched');
    });

    it('deleting through links removes at most the link, never what it points at', async () => {
      await expect(store.delete(['planted/dir/secret'])).rejects.toThrow(/symbolic link/);
      await store.delete(['planted/secret']);
      await store.deletePrefix('planted/dir');
      expect((await readdir(outside)).sort()).toEqual(['secret~obj', 'victim']);
      expect((await readdir(path.join(root, 'planted'))).sort()).toEqual(['file~obj']);
    });
  });

  describe('a crash between the temporary write and the rename', () => {
    it('leaves the old bytes readable, and a later write still lands', async () => {
      await store.put('crash/b/k', text('old'), 'text/plain');
      // What a crash mid-put leaves: a part-written temporary file beside the object.
      await writeFile(path.join(root, 'crash', 'b', '.tmp-0123456789abcdef'), '{"contentType":"text/ht');
      expect(await store.get('crash/b/k')).toEqual({ bytes: text('old'), contentType: 'text/plain' });
      await store.put('crash/b/k', text('new'), 'text/html');
      expect(await store.get('crash/b/k')).toEqual({ bytes: text('new'), contentType: 'text/html' });
    });

    it('never answers or names a temporary file, and a prefix delete sweeps it', async () => {
      await writeFile(path.join(root, 'crash', 'b', '.tmp-feedfacefeedface'), 'partial');
      expect(await store.get('crash/b/tmp-feedfacefeedface')).toBeNull();
      await expect(store.get('crash/b/.tmp-feedfacefeedface')).rejects.toBeInstanceOf(InvalidObjectKey);
      await store.deletePrefix('crash/b');
      expect(await readdir(path.join(root, 'crash'))).toEqual([]);
    });

    it('leaves no temporary file after a successful write', async () => {
      await store.put('clean/b/k', text('1'), 'text/plain');
      await store.put('clean/b/k', text('2'), 'text/plain');
      expect(await readdir(path.join(root, 'clean', 'b'))).toEqual(['k~obj']);
    });
  });

  it('keeps objects readable by the API\'s user only (files 0600, folders 0700)', async () => {
    await store.put('modes/b/k', text('private'), 'text/plain');
    expect((await stat(path.join(root, 'modes', 'b'))).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(root, 'modes', 'b', 'k~obj'))).mode & 0o777).toBe(0o600);
  });

  it('rejects a damaged object file rather than answering garbage', async () => {
    await mkdir(path.join(root, 'damaged'), { recursive: true });
    await writeFile(path.join(root, 'damaged', 'k~obj'), 'no header here');
    await expect(store.get('damaged/k')).rejects.toThrow(/damaged/);
  });

  it('keeps a content type with odd characters exactly', async () => {
    const type = 'text/plain; charset="utf-8"\nX-Evil: 1';
    await store.put('odd/k', text('x'), type);
    expect((await store.get('odd/k'))?.contentType).toBe(type);
  });

  it('works again once a root that could not be created becomes possible', async () => {
    const blocked = path.join(dir, 'blocked');
    await writeFile(blocked, 'a file in the way');
    const later = new FilesystemObjectStore(path.join(blocked, 'objects'));
    await expect(later.put('a/b', text('x'), 'text/plain')).rejects.toThrow(/cannot be used/);
    await rm(blocked);
    await later.put('a/b', text('x'), 'text/plain');
    expect(str((await later.get('a/b'))?.bytes)).toBe('x');
  });
});
