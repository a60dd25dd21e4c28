import type { TemplateInfo } from './project-template.js';

/** How an assistant may already say which template it starts from ("Start from the “landing” template."). */
const OWN_TEMPLATE_LINE = /^\s*Start from the [“"']?[^”"'\n]+[”"']? template\.\s*/i;

/**
 * The enhanced prompt shaped around the project's template (SPEC §7 enhance-prompt `template_id`):
 * it opens by naming the template and what it already has, asks to keep that layout and fill it
 * for this idea, then gives the assistant's enhanced request (its own "Start from …" line dropped,
 * so the template is named once).
 */
export function promptForTemplate(enhanced: string, template: TemplateInfo): string {
  const request = enhanced.replace(OWN_TEMPLATE_LINE, '').trim();
  const frame =
    template.id === 'blank'
      ? 'Start from the Blank template (an empty page) and build the whole app.'
      : `Start from the ${template.name} template, which already has ${template.includes}. Keep its layout and sections and fill them for this idea.`;
  return request === '' ? frame : `${frame} ${request}`;
}
