import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { RecordingHttp } from '../testing/recording-http';
import { HttpAttachmentsApi } from './attachments.api';

describe('HttpAttachmentsApi', () => {
  it('posts the file itself, its type and its name (percent-encoded) as headers, once', async () => {
    const http = new RecordingHttp();
    const api = new HttpAttachmentsApi(http);
    const file = new Blob(['<svg></svg>'], { type: 'image/svg+xml' });
    await api.upload('p/1', file, 'Logo ✨ final.svg');
    const [method, path, body, options] = http.calls[0] ?? [];
    expect([method, path, body]).toEqual(['POST', '/api/projects/p%2F1/attachments', file]);
    expect(options).toMatchObject({ headers: { 'Content-Type': 'image/svg+xml', 'X-File-Name': 'Logo%20%E2%9C%A8%20final.svg' }, retry: false });
  });
});
