import { describe, expect, it } from '@jest/globals';
import { hostnameOf, parsePreviewUrlTemplate, type PreviewUrls } from './preview-url.js';

const ID = '3f2a9c1b-7d4e-4a5b-8c6d-0123456789ab';

function urls(template: string, port = 3000): PreviewUrls {
  const parsed = parsePreviewUrlTemplate(template, port);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.value;
}

describe('parsePreviewUrlTemplate', () => {
  it('builds each project its own origin', () => {
    expect(urls('http://{id}.preview.localhost:{port}').originFor(ID)).toBe(`http://${ID}.preview.localhost:3000`);
    expect(urls('https://{id}.preview.example.com').originFor(ID.toUpperCase())).toBe(`https://${ID}.preview.example.com`);
    expect(urls('https://previews.{id}.example.com:8443/').originFor(ID)).toBe(`https://previews.${ID}.example.com:8443`);
  });

  it('gives the CSP source of every preview origin (for the web app\'s frame-src)', () => {
    expect(urls('http://{id}.preview.localhost:{port}').frameSource).toBe('http://*.preview.localhost:3000');
    expect(urls('https://{id}.preview.example.com').frameSource).toBe('https://*.preview.example.com');
    expect(urls('https://previews.{id}.example.com:8443').frameSource).toBe('https://*.example.com:8443');
  });

  it('recognises preview hosts whatever their port or case', () => {
    const preview = urls('http://{id}.preview.localhost:{port}');
    expect(preview.match(`${ID}.preview.localhost:3000`)).toEqual({ kind: 'preview', projectId: ID });
    expect(preview.match(`${ID}.preview.localhost:41234`)).toEqual({ kind: 'preview', projectId: ID });
    expect(preview.match(`${ID.toUpperCase()}.PREVIEW.localhost`)).toEqual({ kind: 'preview', projectId: ID });
    expect(preview.match(`${ID}.preview.localhost.`)).toEqual({ kind: 'preview', projectId: ID });
  });

  it('calls a preview host with a bad id invalid, never the app', () => {
    const preview = urls('http://{id}.preview.localhost:{port}');
    for (const host of ['not-a-uuid.preview.localhost', `a.${ID}.preview.localhost`, `${ID}x.preview.localhost:3000`]) {
      expect(preview.match(host)).toEqual({ kind: 'invalid-preview' });
    }
  });

  it('leaves every other host to the app', () => {
    const preview = urls('http://{id}.preview.localhost:{port}');
    for (const host of [undefined, '', 'localhost:3000', '127.0.0.1:3000', 'preview.localhost', `${ID}.localhost`, `${ID}.preview.localhost.evil.com`, '[::1]:3000', 'a b']) {
      expect(preview.match(host)).toEqual({ kind: 'app' });
    }
  });
});

describe('hostnameOf', () => {
  it('strips the port and lower-cases', () => {
    expect(hostnameOf('Example.COM:8080')).toBe('example.com');
    expect(hostnameOf('example.com')).toBe('example.com');
  });

  it('refuses malformed Host values', () => {
    for (const host of ['user@example.com', 'example.com/x', 'example.com:99999999', 'a b', '']) expect(hostnameOf(host)).toBeNull();
  });
});
