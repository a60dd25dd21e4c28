import type { TemplatePromptShaper } from '../ai/helpers/ai-helpers.use-cases.js';
import type { DomainError } from '../shared/domain-error.js';
import { err, ok, type Result } from '../shared/result.js';
import { promptForTemplate } from './template-prompt.js';

/** The starters a project can begin from (issue #17 item 6), in the order the wizard offers them. */
export const TEMPLATE_IDS = ['blank', 'landing', 'dashboard', 'store', 'blog'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

/** What the catalog says of a template: shown by the wizard, and what enhance-prompt builds around. */
export interface TemplateInfo {
  readonly id: TemplateId;
  readonly name: string;
  readonly description: string;
  /** What the template already has, in words the enhanced prompt names ("a hero, features, …"). */
  readonly includes: string;
}

/**
 * The files a template writes over a project, given the project's current files (a template may
 * keep parts of them, such as index.html's head). An empty map keeps the project as it is.
 * Implemented outside the domain (the offline generator writes real Vite + React projects).
 */
export interface TemplateFiles {
  filesFor(template: TemplateId, current: ReadonlyMap<string, string>): ReadonlyMap<string, string>;
}

/** A template of the catalog: its description and the producer of its files. */
export interface ProjectTemplate extends TemplateInfo {
  files(current: ReadonlyMap<string, string>): ReadonlyMap<string, string>;
}

export const TEMPLATE_INFO: Readonly<Record<TemplateId, TemplateInfo>> = Object.freeze({
  blank: { id: 'blank', name: 'Blank', description: 'The empty starter: one page, ready for your first prompt.', includes: 'an empty page' },
  landing: {
    id: 'landing',
    name: 'Landing page',
    description: 'A product or business page with a hero, features, testimonials and a call to action.',
    includes: 'a hero, features, testimonials and a call to action',
  },
  dashboard: {
    id: 'dashboard',
    name: 'Dashboard',
    description: 'Key numbers, a chart and a table of recent activity.',
    includes: 'stat cards, a chart and a recent orders table',
  },
  store: { id: 'store', name: 'Online store', description: 'A product grid with a cart and a checkout summary.', includes: 'a product grid, a cart and a checkout summary' },
  blog: { id: 'blog', name: 'Blog', description: 'A list of posts with tags and a reading view.', includes: 'a post list with tags and a reading view' },
});

export type TemplateNotFound = DomainError<'TEMPLATES.NOT_FOUND'> & { readonly template: string };

export const templateNotFound = (template: string): TemplateNotFound => ({
  code: 'TEMPLATES.NOT_FOUND',
  message: `No template ${template}; choose one of ${TEMPLATE_IDS.join(', ')}`,
  template,
});

export function isTemplateId(value: string): value is TemplateId {
  return (TEMPLATE_IDS as readonly string[]).includes(value);
}

/** The catalog: every template's description with its files producer. */
export class TemplateCatalog implements TemplatePromptShaper {
  constructor(private readonly producer: TemplateFiles) {}

  /** enhance-prompt's answer shaped around a catalog template (promptForTemplate); null for another id. */
  shapeEnhancedPrompt(enhanced: string, templateId: string): string | null {
    return isTemplateId(templateId) ? promptForTemplate(enhanced, TEMPLATE_INFO[templateId]) : null;
  }

  list(): readonly ProjectTemplate[] {
    return TEMPLATE_IDS.map((id) => this.template(id));
  }

  find(id: string): Result<ProjectTemplate, TemplateNotFound> {
    return isTemplateId(id) ? ok(this.template(id)) : err(templateNotFound(id));
  }

  private template(id: TemplateId): ProjectTemplate {
    return { ...TEMPLATE_INFO[id], files: (current) => this.producer.filesFor(id, current) };
  }
}
