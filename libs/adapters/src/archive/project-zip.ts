import { PassThrough, type Readable } from 'node:stream';
import type { ProjectFileBytes } from '@kiln/domain';
import { ZipFile } from 'yazl';

export interface ProjectZipOptions {
  /** Every entry's modification time (the export's own time: file times are not read). */
  readonly mtime: Date;
}

/**
 * A project's files as a zip (yazl), streamed as it is made. The first file is read before the
 * stream is answered, so a refusal (a missing sandbox, an export over its cap) rejects here and the
 * API can still answer it with a status; a failure later destroys the stream (the download breaks
 * rather than ending as a valid but partial zip). Entry names are the host's project paths, which
 * the domain's path rule has checked (relative, no '..', no backslash); yazl refuses anything else.
 */
export async function openProjectZip(files: AsyncIterable<ProjectFileBytes>, options: ProjectZipOptions): Promise<Readable> {
  const iterator = files[Symbol.asyncIterator]();
  const first = await iterator.next();
  const zip = new ZipFile();
  const out = new PassThrough();
  zip.outputStream.on('error', (error: Error) => out.destroy(error)).pipe(out);
  const add = (file: ProjectFileBytes) => zip.addBuffer(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength), file.path, { mtime: options.mtime, mode: 0o100644 });
  void (async () => {
    try {
      for (let next = first; next.done !== true; next = await iterator.next()) {
        if (out.destroyed) return void (await iterator.return?.());
        add(next.value);
      }
      zip.end();
    } catch (error) {
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return out;
}
