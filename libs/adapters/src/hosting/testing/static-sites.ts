import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LocalHostingProvider } from '../local-hosting-provider.adapter.js';

/**
 * Publishes one tiny site per host (`<p>{host}</p>` as its index.html) into `hostingRoot` through
 * the real LocalHostingProvider, with a stand-in builder whose output is a folder under `base`:
 * for specs that need sites served by Host without building a project.
 */
export async function publishStaticSites(base: string, hostingRoot: string, hosts: readonly string[]): Promise<void> {
  for (const host of hosts) {
    const dist = path.join(base, host, 'dist');
    await mkdir(dist, { recursive: true });
    await writeFile(path.join(dist, 'index.html'), `<p>${host}</p>`);
    const builder = { buildForRelease: async () => ({ exitCode: 0, timedOut: false, log: '', projectDir: path.dirname(dist), outputDir: 'dist' }) };
    const provider = new LocalHostingProvider({ hostingRoot, builder });
    const id = host.split('.')[0] as string;
    await provider.buildRelease({ sandboxId: id, projectId: id, releaseId: `${id}-1` });
    await provider.activate({ slug: id, releaseId: `${id}-1`, hosts: [host] });
  }
}
