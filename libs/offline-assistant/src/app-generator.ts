// Building a whole app from an AppSpec, in stages that each leave a working project:
// layout (shell) → core (the kind's main feature) → sections (extras asked for) → theme.
import { topicFor, type Topic } from './copy.js';
import { SECTION_IDS, type AppKind, type AppSpec, type SectionId } from './intent.js';
import { appTsx, footerTsx, headerTsx, heroTsx, indexHtml, mainTsx, siteTs, type NavLink } from './layout.js';
import { DEFAULT_THEME } from './palette.js';
import { sectionComponent, sectionLink, type GeneratedComponent } from './sections.js';
import { indexCss, usesTailwind } from './styles.js';
import type { KindBlueprint, KindContext } from './kinds/kind.js';
import { KIND_BLUEPRINTS } from './kinds/index.js';
import { dataBlueprint } from './data/data-app.js';
import { dataTableFor, type DataTable } from './data/data-tables.js';
import { liveAppFor, liveBlueprint, type LiveApp } from './data/live-apps.js';

export type BuildStage = 'layout' | 'core' | 'sections' | 'theme';

export interface StagePlan {
  readonly stage: BuildStage;
  readonly title: string;
  readonly description: string;
}

export interface AppContext {
  readonly spec: AppSpec;
  readonly topic: Topic;
  readonly blueprint: KindBlueprint;
  /** The table of a data-backed app, or its live app (storage, realtime); built only when the project has a database, else null. */
  readonly data: DataTable | LiveApp | null;
}

/** The app to build; with `databaseConnected`, a request for accounts builds the data-backed version. */
export function appContext(spec: AppSpec, prompt: string, databaseConnected = false): AppContext {
  const topic = topicFor(spec.name, spec.subject, prompt);
  const ctx: KindContext = { spec, topic, prompt };
  const live = databaseConnected ? liveAppFor(prompt) : null;
  // Its own words under the name: a guest book is no "creative studio", whatever its subject.
  if (live !== null) return { spec, topic: { ...topic, tagline: live.tagline }, blueprint: liveBlueprint(live), data: live };
  const data = databaseConnected ? dataTableFor(prompt, spec.kind) : null;
  return { spec, topic, blueprint: data ? dataBlueprint(data, ctx) : KIND_BLUEPRINTS[spec.kind](ctx), data };
}

/** What the app is, in words ("task list"; "habit tracker with sign-in"). */
export function appWords(app: AppContext): string {
  return app.data ? `${app.data.words.app} with sign-in` : kindWords(app.spec.kind);
}

const KIND_WORDS: Readonly<Record<AppKind, string>> = {
  landing: 'landing page',
  todo: 'task list',
  dashboard: 'dashboard',
  blog: 'blog',
  portfolio: 'portfolio',
  calculator: 'calculator',
  'contact-form': 'contact form',
  'signup-form': 'sign-up form',
  pricing: 'pricing page',
  notes: 'notes app',
  recipes: 'recipe book',
  weather: 'weather widget',
  kanban: 'kanban board',
  expenses: 'expense tracker',
  store: 'online store',
  habits: 'habit tracker',
  standup: 'standup board',
};

export function kindWords(kind: AppKind): string {
  return KIND_WORDS[kind];
}

/** Sections the kind has itself, then the ones asked for, in page order (the call to action last). */
function sectionsAt(app: AppContext, stage: BuildStage): SectionId[] {
  if (stage === 'layout') return [];
  const wanted = new Set<SectionId>(app.blueprint.coreSections);
  if (stage !== 'core') for (const s of app.spec.sections) wanted.add(s);
  return SECTION_IDS.filter((s) => wanted.has(s) && s !== 'cta').concat(wanted.has('cta') ? ['cta'] : []);
}

function extraSections(app: AppContext): SectionId[] {
  return app.spec.sections.filter((s) => !app.blueprint.coreSections.includes(s));
}

export function buildStages(app: AppContext): StagePlan[] {
  const { spec, blueprint } = app;
  const stages: StagePlan[] = [
    {
      stage: 'layout',
      title: `Lay out the ${app.data ? app.data.words.app : kindWords(spec.kind)}`,
      description: `Page shell for ${spec.name}: title, header, hero, footer and the shared styles.`,
    },
    { stage: 'core', title: blueprint.coreTask.title, description: blueprint.coreTask.description },
  ];
  const extras = extraSections(app);
  if (extras.length > 0) {
    stages.push({ stage: 'sections', title: 'Add the requested sections', description: `Sections: ${extras.map((s) => sectionComponent(s, sectionCtx(app)).name).join(', ')}.` });
  }
  if (spec.themed) {
    const parts = [
      spec.theme.primary !== DEFAULT_THEME.primary ? `primary colour ${spec.theme.primary}` : null,
      spec.theme.dark ? 'dark look' : null,
      spec.theme.font !== DEFAULT_THEME.font ? `${spec.theme.font} font` : null,
    ].filter(Boolean);
    stages.push({ stage: 'theme', title: 'Apply the theme', description: `Theme: ${parts.join(', ') || 'light look'}.` });
  }
  return stages;
}

function sectionCtx(app: AppContext) {
  return { name: app.spec.name, subject: app.spec.subject, topic: app.topic };
}

const ORDER: readonly BuildStage[] = ['layout', 'core', 'sections', 'theme'];

/**
 * The files an app has after `stage` (and every stage before it). index.html and src/main.tsx
 * are the current files, changed only where needed.
 */
export function filesAtStage(app: AppContext, stage: BuildStage, current: ReadonlyMap<string, string>): Map<string, string> {
  const { spec, topic, blueprint } = app;
  const reached = (s: BuildStage) => ORDER.indexOf(stage) >= ORDER.indexOf(s);
  const files = new Map<string, string>();
  const themed = !spec.themed || reached('theme') ? spec.theme : DEFAULT_THEME;

  const sections = sectionsAt(app, stage);
  const finalSections = sectionsAt(app, 'theme');
  const sectionComponents: GeneratedComponent[] = sections.map((s) => sectionComponent(s, sectionCtx(app)));
  const mainComponents = reached('core') ? blueprint.main : [];

  const links: NavLink[] = [
    ...(reached('core') ? blueprint.links : []),
    ...sections.map(sectionLink).filter((l): l is NavLink => l !== null),
  ];
  const heroCopy = blueprint.heroCopy ?? topic;
  const primaryHref = finalSections.includes('contact') ? '#contact' : finalSections.includes('cta') ? '#cta' : (blueprint.links[0]?.href ?? '#top');
  const secondaryHref = finalSections.includes('features') ? '#features' : (finalSections[0] ? `#${finalSections[0]}` : '#top');
  const headerCta = blueprint.hero === 'landing' ? { label: heroCopy.cta, href: primaryHref } : null;

  files.set('index.html', indexHtml(current.get('index.html'), spec.name, topic.tagline));
  files.set('src/main.tsx', mainTsx(current.get('src/main.tsx')));
  files.set('src/index.css', indexCss(themed, usesTailwind(current)));
  files.set('src/site.ts', siteTs(spec, topic));
  files.set('src/components/Header.tsx', headerTsx(links, headerCta));
  files.set('src/components/Hero.tsx', heroTsx(blueprint.hero, heroCopy, primaryHref, secondaryHref));
  files.set('src/components/Footer.tsx', footerTsx());
  if (reached('core')) for (const [path, content] of Object.entries(blueprint.support)) files.set(path, content);
  for (const component of [...mainComponents, ...sectionComponents]) files.set(component.path, component.content);

  const hero = { name: 'Hero', path: 'src/components/Hero.tsx' };
  // The kind's own components come first, except a landing page's sections, which are its content.
  // With pages added earlier, the app is the home page of src/routes.tsx.
  const homePage = current.get('src/routes.tsx')?.includes("import { HomePage } from './App';") === true;
  files.set('src/App.tsx', appTsx({ main: [hero, ...mainComponents, ...sectionComponents] }, homePage ? 'HomePage' : 'App'));
  return files;
}
