// Requests about files attached to the message (issue 18 item 3): "use this as the logo" puts the
// attached image in the header; "use this as the hero image" puts it on the home page. The turn
// has already placed each file at public/attachments/<name>; the app reaches it as
// /attachments/<name>. Without an attached image the assistant says, in words, what to do.
import type { AttachmentRef } from '@kiln/domain';
import { sourceFiles, type EditOutcome, type WorkingFiles } from './edits.js';
import type { EditIntent } from './edit-intent.js';

const THIS = String.raw`(?:this|that|it|these|(?:this|that|the|my|our)\s+(?:attached|uploaded|new|above)?\s*(?:image|picture|photo|pic|file|graphic|logo|one|png|svg|jpe?g))`;
const AS = String.raw`(?:\s+(?:as|to\s+be|into|for|in\s+the\s+header\s+as))?\s+(?:the\s+|our\s+|my\s+|a\s+|an\s+)?(?:new\s+)?(?:app'?s?\s+|site'?s?\s+|brand\s+|company\s+)?`;
/** "use this as the logo", "make this the logo", "use the attached image as our logo", "set it as the site logo". */
export const LOGO_REQUEST = new RegExp(String.raw`\b(?:use|make|set|put|add|take|turn)\s+${THIS}${AS}logo\b`, 'i');
/** "use this as the hero image", "add this image to the home page", "put this picture on the front page". */
export const HERO_REQUEST = new RegExp(
  String.raw`\b(?:use|make|set|put|add|place)\s+${THIS}(?:${AS}(?:hero|banner|header|cover|main|home\s*page)\s+(?:image|picture|photo)|\s+(?:to|on|in|at\s+the\s+top\s+of)\s+(?:the\s+|our\s+|my\s+)?(?:home|front|landing|main)\s*page|\s+(?:to|in|on)\s+(?:the\s+)?hero(?:\s+section)?)\b`,
  'i',
);

/** A request to put an attached image somewhere (its "this" is the image, not a picked element). */
export const asksAboutAttachedImage = (words: string): boolean => LOGO_REQUEST.test(words) || HERO_REQUEST.test(words);

const NO_IMAGE = 'I don’t see an attached image. Drop the image into the chat, paste it, or pick it with the paperclip, then send your request with it.';

/** The edit intents with the message's first attached image filled in. */
export function useAttachedImages(intents: readonly EditIntent[], attachments: readonly AttachmentRef[]): EditIntent[] {
  const image = attachments.find((a) => a.contentType.startsWith('image/'))?.path ?? null;
  return intents.map((intent) => (intent.type === 'logo' || intent.type === 'hero-image' ? { ...intent, image } : intent));
}

const HEADER = 'src/components/Header.tsx';
/** The one-letter mark a generated header starts with. */
const BRAND_MARK = /<span className="brand-mark" aria-hidden="true">\s*\{site\.name\.charAt\(0\)\}\s*<\/span>/;
const LOGO_IMG = /<img className="brand-logo"[^>]*\/>/;

function logoTag(image: string, alt: string): string {
  return `<img className="brand-logo" src=${JSON.stringify(image)} alt=${alt} style={{ height: 32, width: 'auto', maxWidth: 160, objectFit: 'contain' }} />`;
}

/** The attached image as the app's logo, in the header; nothing else changes. */
export function setLogo(files: WorkingFiles, image: string | null): EditOutcome {
  if (image === null) return { done: false, unsupported: true, summary: NO_IMAGE };
  const header = files.get(HEADER);
  if (header !== undefined && (BRAND_MARK.test(header) || LOGO_IMG.test(header))) {
    const tag = logoTag(image, '{`${site.name} logo`}');
    files.set(HEADER, LOGO_IMG.test(header) ? header.replace(LOGO_IMG, () => tag) : header.replace(BRAND_MARK, () => tag));
    return { done: true, summary: `Put ${image} in the header as the logo (${HEADER}).` };
  }
  // An app of another shape: the first <header> of its sources gets the logo first thing.
  for (const path of sourceFiles(files)) {
    const content = files.get(path);
    const open = content === undefined ? null : /<header\b[^>]*>/.exec(content);
    if (content === undefined || open === null) continue;
    const at = open.index + open[0].length;
    const existing = LOGO_IMG.exec(content);
    const tag = logoTag(image, '"Logo"');
    files.set(path, existing ? content.replace(LOGO_IMG, () => tag) : `${content.slice(0, at)}\n${tag}${content.slice(at)}`);
    return { done: true, summary: `Put ${image} in the header as the logo (${path}).` };
  }
  return { done: false, unsupported: true, summary: `This app has no header I could put the logo in; the image is at public${image} for the app to use as ${image}.` };
}

const HERO = /(<section\b[^>]*className="[^"]*\bhero\b[^"]*"[^>]*>\s*<div\b[^>]*>)/;
const HERO_IMG = /<img className="hero-image"[^>]*\/>/;

/** The attached image at the top of the home page's hero section. */
export function setHeroImage(files: WorkingFiles, image: string | null): EditOutcome {
  if (image === null) return { done: false, unsupported: true, summary: NO_IMAGE };
  const tag = `<img className="hero-image" src=${JSON.stringify(image)} alt="" style={{ display: 'block', width: '100%', maxHeight: 360, objectFit: 'cover', borderRadius: 'var(--radius)', marginBottom: '1.5rem' }} />`;
  for (const path of sourceFiles(files)) {
    const content = files.get(path);
    if (content === undefined) continue;
    if (HERO_IMG.test(content)) {
      files.set(path, content.replace(HERO_IMG, () => tag));
      return { done: true, summary: `Put ${image} at the top of the home page (${path}).` };
    }
    const m = HERO.exec(content);
    if (m === null) continue;
    files.set(path, content.replace(HERO, (all: string) => `${all}\n${tag}`));
    return { done: true, summary: `Put ${image} at the top of the home page (${path}).` };
  }
  return { done: false, unsupported: true, summary: `This app has no hero section I could put the image in; it is at public${image} for the app to use as ${image}.` };
}
