import { Readable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { type ProjectFileBytes, SandboxLimitReached, sandboxTooLarge } from '@kiln/domain';
import yauzl from 'yauzl';
import { openProjectZip } from './project-zip.js';

const MTIME = new Date('2026-01-02T03:04:06Z');

async function* filesOf(entries: Record<string, string>, failAfter?: number): AsyncIterable<ProjectFileBytes> {
  let n = 0;
  for (const [path, text] of Object.entries(entries)) {
    if (failAfter !== undefined && n++ === failAfter) throw new SandboxLimitReached(sandboxTooLarge('export-bytes', 1));
    yield { path, bytes: new Uint8Array(Buffer.from(text, 'utf8')) };
  }
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The zip read back with yauzl (which validates names and sizes as it reads). */
function unzip(zip: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (error, file) => {
      if (error || !file) return reject(error);
      const out = new Map<string, string>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          void bytesOf(stream as Readable).then((b) => {
            out.set(entry.fileName, b.toString('utf8'));
            file.readEntry();
          }, reject);
        });
      });
      file.on('end', () => resolve(out));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

describe('openProjectZip', () => {
  it('zips every file with its path, byte for byte', async () => {
    const files = { 'package.json': '{}', 'src/App.tsx': 'export const x = "✓";', 'src/deep/a b.txt': '' };
    const zip = await bytesOf(await openProjectZip(filesOf(files), { mtime: MTIME }));
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(await unzip(zip)).toEqual(new Map(Object.entries(files)));
  });

  it('an empty project is an empty, valid zip', async () => {
    expect(await unzip(await bytesOf(await openProjectZip(filesOf({}), { mtime: MTIME })))).toEqual(new Map());
  });

  it('a refusal before the first file rejects before any stream is answered', async () => {
    await expect(openProjectZip(filesOf({ 'a.txt': 'a' }, 0), { mtime: MTIME })).rejects.toMatchObject({ code: 'SANDBOX.TOO_LARGE' });
  });

  it('a failure after the first file breaks the stream: no valid partial zip', async () => {
    const stream = await openProjectZip(filesOf({ 'a.txt': 'a', 'b.txt': 'b' }, 1), { mtime: MTIME });
    await expect(bytesOf(stream)).rejects.toMatchObject({ code: 'SANDBOX.TOO_LARGE' });
  });
});
