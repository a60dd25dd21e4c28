// The catalog's templates as real projects (issue #17 item 6): each is the app the generator
// builds for its kind, with every stage applied, over the project's current files.
import type { TemplateFiles, TemplateId } from '@kiln/domain';
import { appContext, filesAtStage } from './app-generator.js';
import type { AppKind, AppSpec } from './intent.js';
import { DEFAULT_NAMES } from './intent.js';
import { DEFAULT_THEME } from './palette.js';

/** The kind each template is (blank is the starter as it is). */
const TEMPLATE_KINDS: Readonly<Record<Exclude<TemplateId, 'blank'>, AppKind>> = Object.freeze({
  landing: 'landing',
  dashboard: 'dashboard',
  store: 'store',
  blog: 'blog',
});

/** Fixed, so a template is the same project every time. */
const TEMPLATE_SEED = 1;

function templateSpec(kind: AppKind): AppSpec {
  return { kind, name: DEFAULT_NAMES[kind], subject: null, sections: [], theme: DEFAULT_THEME, themed: false, seed: TEMPLATE_SEED };
}

/** The domain's TemplateFiles: the offline generator's app of the template's kind. */
export class OfflineTemplateFiles implements TemplateFiles {
  filesFor(template: TemplateId, current: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
    if (template === 'blank') return new Map();
    const kind = TEMPLATE_KINDS[template];
    return filesAtStage(appContext(templateSpec(kind), kind), 'theme', current);
  }
}
