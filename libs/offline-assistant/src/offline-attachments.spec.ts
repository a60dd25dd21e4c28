// Issue 18 item 3: "use this as the logo" works offline. The message carries the attached image
// as a line (attachments/attachment-lines.ts in the domain); the assistant puts it in the header
// and changes nothing else. Without an image it says what to do, and changes nothing.
import { describe, expect, it } from '@jest/globals';
import { appendAttachments, appendSelectedElement, type AttachmentRef } from '@kiln/domain';
import { OfflineAiAssistant } from './offline-assistant.adapter.js';
import { drive, starterFiles } from './testing/drive-assistant.js';

const assistant = new OfflineAiAssistant();
const LOGO: AttachmentRef = { path: '/attachments/logo-1a2b3c4d.png', fileName: 'logo-1a2b3c4d.png', contentType: 'image/png', name: 'logo.png' };
const PHOTO: AttachmentRef = { path: '/attachments/bread-1a2b3c4e.jpg', fileName: 'bread-1a2b3c4e.jpg', contentType: 'image/jpeg', name: 'bread.jpg' };
const BRIEF: AttachmentRef = { path: '/attachments/brief-1a2b3c4f.pdf', fileName: 'brief-1a2b3c4f.pdf', contentType: 'application/pdf', name: 'brief.pdf' };

const changedPaths = (before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>) =>
  [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p)).sort();

describe('an attached image offline', () => {
  let built: ReadonlyMap<string, string>;
  const build = async () => (built ??= (await drive(assistant, 'A landing page for my bakery, called Crumb', starterFiles())).files);

  it('“use this as the logo” puts the image in the header, named for the app, and changes nothing else', async () => {
    const files = await build();
    const edit = await drive(assistant, appendAttachments('use this as the logo', [LOGO]), files);
    expect(edit.plan.kind).toBe('edit');
    const header = edit.files.get('src/components/Header.tsx') ?? '';
    expect(header).toContain('<img className="brand-logo" src="/attachments/logo-1a2b3c4d.png" alt={`${site.name} logo`}');
    expect(header).toMatch(/height: 32/);
    expect(header).not.toContain('brand-mark');
    // The rest of the header (the name beside the logo, the navigation) stays.
    expect(header).toContain('{site.name}\n        </a>');
    expect(header).toContain('<nav className="nav" aria-label="Main">');
    expect(changedPaths(files, edit.files)).toEqual(['src/components/Header.tsx']);
    expect(edit.text).toContain('/attachments/logo-1a2b3c4d.png');
  });

  it('reads the close phrasings, and a second logo replaces the first', async () => {
    const files = await build();
    for (const words of ['make this the logo', 'use the attached image as our logo', 'Please set this image as the site logo', 'make it our new logo']) {
      const edit = await drive(assistant, appendAttachments(words, [LOGO]), files);
      expect(edit.files.get('src/components/Header.tsx')).toContain('src="/attachments/logo-1a2b3c4d.png"');
    }
    const once = await drive(assistant, appendAttachments('use this as the logo', [LOGO]), files);
    const twice = await drive(assistant, appendAttachments('use this as the logo', [{ ...LOGO, path: '/attachments/logo2-00000002.svg', fileName: 'logo2-00000002.svg', contentType: 'image/svg+xml' }]), once.files);
    const header = twice.files.get('src/components/Header.tsx') ?? '';
    expect(header.match(/brand-logo/g)).toHaveLength(1);
    expect(header).toContain('/attachments/logo2-00000002.svg');
  });

  it('uses the first image when files of other kinds come with it', async () => {
    const files = await build();
    const edit = await drive(assistant, appendAttachments('use this as the logo', [BRIEF, LOGO]), files);
    expect(edit.files.get('src/components/Header.tsx')).toContain('/attachments/logo-1a2b3c4d.png');
  });

  it('without an attached image, says in words what to do and changes nothing', async () => {
    const files = await build();
    await expect(drive(assistant, 'use this as the logo', files)).rejects.toThrow(/Drop the image into the chat, paste it, or pick it with the paperclip/);
    await expect(drive(assistant, appendAttachments('use this as the logo', [BRIEF]), files)).rejects.toThrow(/don’t see an attached image/);
  });

  it('“use this as the hero image” puts the image at the top of the home page’s hero, and nothing else', async () => {
    const files = await build();
    for (const words of ['use this as the hero image', 'add this image to the home page']) {
      const edit = await drive(assistant, appendAttachments(words, [PHOTO]), files);
      const hero = edit.files.get('src/components/Hero.tsx') ?? '';
      expect(hero).toContain('<img className="hero-image" src="/attachments/bread-1a2b3c4e.jpg"');
      expect(changedPaths(files, edit.files)).toEqual(['src/components/Hero.tsx']);
    }
  });

  it('with an element picked in the preview too, “this” is still the attached image', async () => {
    const files = await build();
    const message = appendAttachments(appendSelectedElement('use this as the logo', { tag: 'h1', text: 'Crumb', selector: '' }), [LOGO]);
    const edit = await drive(assistant, message, files);
    expect(edit.files.get('src/components/Header.tsx')).toContain('src="/attachments/logo-1a2b3c4d.png"');
  });

  it('a message with an attachment but another request ignores the file', async () => {
    const files = await build();
    const edit = await drive(assistant, appendAttachments('add an about page', [LOGO]), files);
    expect(edit.files.has('src/pages/AboutPage.tsx')).toBe(true);
    expect(edit.files.get('src/components/Header.tsx')).not.toContain('brand-logo');
  });
});
