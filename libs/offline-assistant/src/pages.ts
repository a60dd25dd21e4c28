// Pages added by request ("add an about page"): a section or a whole feature on its own route,
// or a simple content page.
import { hashText, jsxText, str } from './code.js';
import type { Topic } from './copy.js';
import { appContext } from './app-generator.js';
import { guessKind, parseAppSpec, sectionsMentioned } from './intent.js';
import { sectionComponent } from './sections.js';

export interface PageRequest {
  readonly name: string;
  readonly component: string;
}

export interface PageContext {
  readonly appName: string;
  readonly topic: Topic;
  readonly files: { has(path: string): boolean };
}

export interface GeneratedPage {
  readonly content: string;
  /** Files the page needs (components, logic, styles), added when missing. */
  readonly files: Readonly<Record<string, string>>;
}

function pageShell(component: string, title: string, lead: string, imports: readonly string[], body: readonly string[]): string {
  return `${imports.join('\n')}${imports.length ? '\n\n' : ''}export function ${component}() {
  return (
    <main className="page">
      <div className="wrap">
        <h1>${jsxText(title)}</h1>
        <p className="lead">${jsxText(lead)}</p>
      </div>
${body.map((line) => `      ${line}`).join('\n')}
    </main>
  );
}
`;
}

export function pageFor(request: PageRequest, ctx: PageContext): GeneratedPage {
  const { name, component } = request;
  const section = sectionsMentioned(name, true)[0];
  if (section) {
    const made = sectionComponent(section, { name: ctx.appName, subject: null, topic: ctx.topic });
    const lead = section === 'about' ? ctx.topic.tagline : `${name} — ${ctx.appName}.`;
    return {
      content: pageShell(component, name, lead, [`import { ${made.name} } from '../components/${made.name}';`], [`<${made.name} />`]),
      files: { [made.path]: made.content },
    };
  }
  const guess = guessKind(name);
  if (guess.strength >= 3 && guess.kind !== 'landing') {
    const spec = { ...parseAppSpec(name, hashText(name)), name: ctx.appName };
    const app = appContext(spec, name);
    const files: Record<string, string> = { ...app.blueprint.support };
    for (const c of app.blueprint.main) files[c.path] = c.content;
    return {
      content: pageShell(
        component,
        name,
        app.blueprint.coreTask.description,
        app.blueprint.main.map((c) => `import { ${c.name} } from '../components/${c.name}';`),
        app.blueprint.main.map((c) => `<${c.name} />`),
      ),
      files,
    };
  }
  const cards = ctx.topic.features.slice(0, 3);
  const content = `const cards = [
${cards.map((f) => `  { title: ${str(f.title)}, text: ${str(f.text)} },`).join('\n')}
];

export function ${component}() {
  return (
    <main className="page">
      <div className="wrap">
        <h1>${jsxText(name)}</h1>
        <p className="lead">${jsxText(`Everything about ${name.toLowerCase()} at ${ctx.appName}.`)}</p>
        <div className="grid">
          {cards.map((card) => (
            <article className="card" key={card.title}>
              <h3>{card.title}</h3>
              <p className="muted">{card.text}</p>
            </article>
          ))}
        </div>
        <p style={{ marginTop: '2rem' }}>
          <a className="btn btn-ghost" href="#/">
            ← Back to home
          </a>
        </p>
      </div>
    </main>
  );
}
`;
  return { content, files: {} };
}
