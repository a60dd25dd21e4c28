import { describe, expect, it } from '@jest/globals';
import { RELEASE_LOG_MAX_CHARS, releaseLog } from './release-build.js';

describe('releaseLog', () => {
  const project = '/var/lib/kiln/sandboxes/p1';
  const runtime = '/var/lib/kiln/sandbox-cache/runtime/vite-launcher-abc';

  it('takes server folders out: the project becomes relative, Kiln folders an ellipsis', () => {
    const text = `error in ${project}/src/App.tsx:3:1\nat ${runtime}/vite-launcher.mjs:10\nroot ${project}\n`;
    expect(releaseLog(text, [project, runtime])).toBe('error in src/App.tsx:3:1\nat …/vite-launcher.mjs:10\nroot .\n');
  });

  it('removes colours and control characters, keeps lines and tabs', () => {
    expect(releaseLog('\u001b[31m✗ Build failed\u001b[39m\tin 1s\u0007\r\n', [project])).toBe('✗ Build failed\tin 1s\n');
  });

  it('keeps the end of a long log, where the errors are', () => {
    const log = releaseLog(`${'x'.repeat(RELEASE_LOG_MAX_CHARS * 2)}THE ERROR`, [project]);
    expect(log.length).toBeLessThanOrEqual(RELEASE_LOG_MAX_CHARS + 10);
    expect(log.startsWith('[…]\n')).toBe(true);
    expect(log.endsWith('THE ERROR')).toBe(true);
  });
});
