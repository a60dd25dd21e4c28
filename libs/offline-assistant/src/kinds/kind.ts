import type { Topic } from '../copy.js';
import type { AppSpec, SectionId } from '../intent.js';
import type { GeneratedComponent } from '../sections.js';

export interface KindContext {
  readonly spec: AppSpec;
  readonly topic: Topic;
  /** The request as written. */
  readonly prompt: string;
}

/** What one kind of app adds to the common layout (header, hero, footer). */
export interface KindBlueprint {
  /** The components of the app's main feature, rendered in <main> after the hero. */
  readonly main: readonly GeneratedComponent[];
  /** Other files: logic, data, component styles. */
  readonly support: Readonly<Record<string, string>>;
  /** Sections the kind always has (landing pages: features, testimonials, …). */
  readonly coreSections: readonly SectionId[];
  /** 'landing': big hero with buttons; 'compact': a page heading. */
  readonly hero: 'landing' | 'compact';
  /** Hero words instead of the topic's (a portfolio speaks for a person). */
  readonly heroCopy?: { readonly headline: string; readonly lead: string; readonly cta: string };
  /** Header links to the main feature (before section links). */
  readonly links: readonly { readonly href: string; readonly label: string }[];
  /** The core task of the plan. */
  readonly coreTask: { readonly title: string; readonly description: string };
}
