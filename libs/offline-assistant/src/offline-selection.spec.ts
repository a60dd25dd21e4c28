// Requests about an element picked in the preview (SPEC §3 builder state: selected element): the
// offline assistant reads "this" as the element and changes that element's text only.
import { describe, expect, it } from '@jest/globals';
import { appendSelectedElement } from '@kiln/domain';
import { OfflineAiAssistant } from './offline-assistant.adapter.js';
import { drive, starterFiles } from './testing/drive-assistant.js';

const assistant = new OfflineAiAssistant();

/** A heading the build wrote as its own text, and the file it is in. */
function aHeading(files: ReadonlyMap<string, string>, tag: string): { path: string; text: string } {
  for (const [path, content] of files) {
    if (!path.endsWith('.tsx')) continue;
    const m = new RegExp(`<${tag}(?:\\s[^<>]*)?>\\s*([A-Z][\\w ’',.!-]{2,40}?)\\s*</${tag}>`).exec(content);
    if (m) return { path, text: m[1] as string };
  }
  throw new Error(`no <${tag}> with its own text`);
}

describe('a request about the selected element', () => {
  let built: ReadonlyMap<string, string>;
  const build = async () => (built ??= (await drive(assistant, 'A recipe finder where I can save favourite recipes, called Pantry', starterFiles())).files);

  it('“change this to …” changes the picked heading where it is written, and nothing else', async () => {
    const files = await build();
    const heading = aHeading(files, 'h3');
    const message = appendSelectedElement('change this to Tonight’s picks', { tag: 'h3', text: heading.text, selector: 'main > section > h3' });
    const edit = await drive(assistant, message, files);
    expect(edit.plan.kind).toBe('edit');
    expect(edit.files.get(heading.path)).toMatch(/<h3(?:\s[^<>]*)?>\s*Tonight’s picks\s*<\/h3>/);
    expect(edit.files.get(heading.path)).not.toMatch(new RegExp(`>\\s*${heading.text}\\s*</h3>`));
    const changed = [...edit.files].filter(([path, content]) => files.get(path) !== content).map(([path]) => path);
    expect(changed).toEqual([heading.path]);
    expect(edit.text).toContain('Changed the selected <h3>');
  });

  it('“make this say …” and “change the selected text to …” are the same request', async () => {
    const files = await build();
    const heading = aHeading(files, 'h3');
    for (const words of ['make this say Fresh ideas', 'change the selected text to Fresh ideas']) {
      const edit = await drive(assistant, appendSelectedElement(words, { tag: 'h3', text: heading.text, selector: '' }), files);
      expect(edit.files.get(heading.path)).toMatch(/>\s*Fresh ideas\s*<\/h3>/);
    }
  });

  it('a text that comes from data (the app’s name) is changed where it is kept', async () => {
    const files = await build();
    const edit = await drive(assistant, appendSelectedElement('rename this to Larder', { tag: 'a', text: 'Pantry', selector: 'header > a' }), files);
    expect(edit.files.get('src/site.ts')).toContain('Larder');
  });

  it('declines, free, what it cannot do to an element offline, and never touches the app', async () => {
    const files = await build();
    const heading = aHeading(files, 'h3');
    await expect(drive(assistant, appendSelectedElement('make this spin', { tag: 'h3', text: heading.text, selector: '' }), files)).rejects.toThrow(/not sure what to change/);
  });

  it('a request that does not point at the selection ignores it', async () => {
    const files = await build();
    const heading = aHeading(files, 'h3');
    const edit = await drive(assistant, appendSelectedElement('add an about page', { tag: 'h3', text: heading.text, selector: '' }), files);
    expect(edit.files.has('src/pages/AboutPage.tsx')).toBe(true);
    expect(edit.files.get(heading.path)).toContain(heading.text);
  });
});
