// One edit intent applied to the working files: the edits of edits.ts and the features of features.ts.
import type { EditIntent } from './edit-intent.js';
import { addPage, addSection, changeButton, changeTheme, removeSection, rename, replaceElementText, replaceText, setHeading, setSubtitle, type EditContext, type EditOutcome, type WorkingFiles } from './edits.js';
import { addDarkModeToggle, addFavourites } from './features.js';
import { setHeroImage, setLogo } from './attached-images.js';

export function applyEdit(files: WorkingFiles, intent: EditIntent, ctx: EditContext): EditOutcome {
  switch (intent.type) {
    case 'rename':
      return rename(files, intent.name);
    case 'heading':
      return setHeading(files, intent.text);
    case 'subtitle':
      return setSubtitle(files, intent.text);
    case 'button':
      return changeButton(files, intent.from, intent.to);
    case 'replace-text':
      return replaceText(files, intent.from, intent.to);
    case 'logo':
      return setLogo(files, intent.image);
    case 'hero-image':
      return setHeroImage(files, intent.image);
    case 'replace-selected':
      return replaceElementText(files, intent.tag, intent.from, intent.to);
    case 'theme':
      return changeTheme(files, intent);
    case 'add-section':
      return addSection(files, intent.section, ctx);
    case 'remove-section':
      return removeSection(files, intent.section);
    case 'add-page':
      return addPage(files, intent, ctx);
    case 'dark-toggle':
      return addDarkModeToggle(files);
    case 'favourites':
      return addFavourites(files);
  }
}
