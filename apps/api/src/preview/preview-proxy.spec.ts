import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { BRIDGE_TAG } from './bridge-script.js';
import { cookieValues, injectBridge, stripKilnCredentials } from './preview-proxy.js';

const inject = (html: string) => injectBridge(Buffer.from(html, 'latin1')).toString('latin1');

describe('injectBridge', () => {
  it('puts the script right after <head>, whatever its case or attributes', () => {
    expect(inject('<!doctype html><html><head><title>x</title></head></html>')).toBe(`<!doctype html><html><head>${BRIDGE_TAG}<title>x</title></head></html>`);
    expect(inject('<HTML><HEAD data-x="1">')).toBe(`<HTML><HEAD data-x="1">${BRIDGE_TAG}`);
    expect(inject('<header></header><head>')).toBe(`<header></header><head>${BRIDGE_TAG}`);
  });

  it('falls back to after <html>, then after the doctype, then the start (after a BOM)', () => {
    expect(inject('<html lang="en"><body>')).toBe(`<html lang="en">${BRIDGE_TAG}<body>`);
    expect(inject('<!DOCTYPE html><p>x')).toBe(`<!DOCTYPE html>${BRIDGE_TAG}<p>x`);
    expect(inject('<p>x')).toBe(`${BRIDGE_TAG}<p>x`);
    expect(inject('\xef\xbb\xbf<p>x')).toBe(`\xef\xbb\xbf${BRIDGE_TAG}<p>x`);
  });

  it('keeps every other byte (any charset)', () => {
    const bytes = Buffer.concat([Buffer.from('<head>'), Buffer.from([0xff, 0xfe, 0x00, 0xe9])]);
    const out = injectBridge(bytes);
    expect(out.subarray(6 + BRIDGE_TAG.length)).toEqual(Buffer.from([0xff, 0xfe, 0x00, 0xe9]));
  });
});

describe('cookies and credentials', () => {
  it('finds every value of a cookie', () => {
    expect(cookieValues('a=1; kiln_preview=x; b=2; kiln_preview=y', 'kiln_preview')).toEqual(['x', 'y']);
    expect(cookieValues(undefined, 'kiln_preview')).toEqual([]);
    expect(cookieValues('kiln_previewx=1; nokv', 'kiln_preview')).toEqual([]);
  });

  it('strips Authorization, Proxy-Authorization and the preview cookie, nothing else', () => {
    const headers: IncomingHttpHeaders = {
      authorization: 'Bearer kiln',
      'proxy-authorization': 'Basic x',
      cookie: 'theme=dark; kiln_preview=abc;app=1',
      accept: '*/*',
    };
    stripKilnCredentials(headers);
    expect(headers).toEqual({ cookie: 'theme=dark; app=1', accept: '*/*' });
    const only: IncomingHttpHeaders = { cookie: 'kiln_preview=abc' };
    stripKilnCredentials(only);
    expect(only).toEqual({});
  });
});
