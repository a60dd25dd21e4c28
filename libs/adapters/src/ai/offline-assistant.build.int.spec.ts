// The offline assistant really builds: apps for many requests and many edits of them are written
// into real sandboxes (LocalSandboxHost, in bubblewrap when installed, from the starter template
// with its shared dependencies), then checked with the sandbox's own find-errors — the project's
// TypeScript compiler and a Vite build, exactly what an AI turn checks before it keeps a change.
// The generator is @kiln/offline-assistant; this spec lives here because it needs the sandbox.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LANDING_EXAMPLES, appendAttachments, type ErrorScan } from '@kiln/domain';
import { OfflineAiAssistant, SUPABASE_PACKAGE } from '@kiln/offline-assistant';
import { drive, starterFiles, type DriveResult } from '@kiln/offline-assistant/testing';
import { DEFAULT_BWRAP_PATH, LocalSandboxHost } from '../sandbox/local-sandbox-host.adapter.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from '../sandbox/testing/sandbox-test-dirs.js';

const assistant = new OfflineAiAssistant();
/** Requests for the data-backed apps (issue #16): each person signs in and keeps their own rows. */
const DATA_PROMPTS = {
  todos: 'a todo list where each person signs in and sees only their own todos',
  notes: 'A notes app where people sign in and keep their own notes',
  habits: 'Build a habit tracker with sign-in so each user tracks their own habits',
  bookings: 'A booking app for my hair salon where clients log in to book appointments',
} as const;
/** Issue 18's live apps: storage and realtime. */
const LIVE_PROMPTS = {
  gallery: 'A photo gallery where people sign in and upload their photos',
  guestbook: 'A guest book for our wedding that updates live',
} as const;

interface BuildCase {
  readonly name: string;
  readonly prompt: string;
  readonly expect: (files: ReadonlyMap<string, string>, result: DriveResult) => void;
}

const file = (files: ReadonlyMap<string, string>, path: string): string => {
  const content = files.get(path);
  if (content === undefined) throw new Error(`${path} is missing; files: ${[...files.keys()].join(', ')}`);
  return content;
};
const rendersIn = (files: ReadonlyMap<string, string>, component: string) => expect(file(files, 'src/App.tsx')).toMatch(new RegExp(`<${component} />`));

const BUILDS: readonly BuildCase[] = [
  {
    name: 'landing',
    prompt: 'Build a landing page for a coffee shop called Bean There with a FAQ and pricing, in green',
    expect: (f, r) => {
      expect(file(f, 'index.html')).toContain('<title>Bean There</title>');
      expect(file(f, 'src/site.ts')).toContain("name: 'Bean There'");
      for (const c of ['Hero', 'Features', 'Testimonials', 'Faq', 'Pricing', 'CallToAction']) rendersIn(f, c);
      expect(file(f, 'src/index.css')).toContain('--primary: #15803d;');
      expect(file(f, 'src/components/Features.tsx')).toMatch(/roast/i);
      expect(r.plan.tasks.map((t) => t.title)).toEqual(['Lay out the landing page', 'Add the main sections', 'Add the requested sections', 'Apply the theme']);
    },
  },
  {
    name: 'todo',
    prompt: 'Create a todo list app',
    expect: (f) => {
      // A starter styled with Tailwind keeps it: its classes and components still work.
      if (/@import ['"]tailwindcss['"]/.test(starterFiles().get('src/index.css') ?? '')) expect(file(f, 'src/index.css')).toMatch(/^@import 'tailwindcss';/);
      rendersIn(f, 'TodoList');
      expect(file(f, 'src/todos.ts')).toContain('export function addTodo');
      expect(file(f, 'src/site.ts')).toContain("name: 'Todo List'");
    },
  },
  {
    name: 'dashboard',
    prompt: 'Make a sales dashboard for my bakery',
    expect: (f) => {
      rendersIn(f, 'Overview');
      rendersIn(f, 'RecentOrders');
      expect(file(f, 'src/site.ts')).toContain("name: 'Bakery Dashboard'");
    },
  },
  {
    name: 'blog',
    prompt: 'I want a blog about hiking',
    expect: (f) => {
      rendersIn(f, 'Blog');
      expect(file(f, 'src/posts.ts')).toMatch(/hiking/);
    },
  },
  {
    name: 'portfolio',
    prompt: 'A portfolio for a photographer named Ana Lopez',
    expect: (f) => {
      for (const c of ['Projects', 'Skills', 'About', 'Contact']) rendersIn(f, c);
      expect(file(f, 'src/components/Hero.tsx')).toContain('Ana Lopez');
      expect(file(f, 'src/portfolio.ts')).toContain('Portraits');
    },
  },
  {
    name: 'calculator',
    prompt: 'Build a calculator',
    expect: (f) => {
      rendersIn(f, 'Calculator');
      expect(file(f, 'src/calculator.ts')).toContain('export function pressKey');
    },
  },
  {
    name: 'contact-form',
    prompt: 'Create a contact form for my design studio',
    expect: (f) => {
      rendersIn(f, 'ContactForm');
      expect(file(f, 'src/components/ContactForm.tsx')).toContain('Please enter a valid email address.');
    },
  },
  {
    name: 'signup-form',
    prompt: 'Make a signup form for our SaaS waitlist',
    expect: (f) => {
      rendersIn(f, 'SignupForm');
      expect(file(f, 'src/password.ts')).toContain('passwordStrength');
      expect(file(f, 'src/site.ts')).toContain("name: 'SaaS Waitlist'");
    },
  },
  {
    name: 'pricing',
    prompt: 'A pricing page for my SaaS called Flowdesk, dark mode',
    expect: (f) => {
      rendersIn(f, 'PricingPlans');
      rendersIn(f, 'Comparison');
      rendersIn(f, 'Faq');
      expect(file(f, 'src/index.css')).toContain('color-scheme: dark;');
      expect(file(f, 'index.html')).toContain('<title>Flowdesk</title>');
    },
  },
  {
    name: 'notes',
    prompt: 'Build a note-taking app called Jot',
    expect: (f) => {
      rendersIn(f, 'Notes');
      expect(file(f, 'src/site.ts')).toContain("name: 'Jot'");
    },
  },
  {
    name: 'recipes',
    prompt: 'Create a recipe book app with a serif font',
    expect: (f) => {
      rendersIn(f, 'Recipes');
      expect(file(f, 'src/index.css')).toContain('--font: ui-serif');
    },
  },
  {
    name: 'weather',
    prompt: 'Build a weather widget for Paris',
    expect: (f) => {
      rendersIn(f, 'Weather');
      expect(file(f, 'src/weather.ts')).toContain("name: 'Paris'");
    },
  },
  {
    name: 'kanban',
    prompt: 'Make a kanban board for my team with a purple theme',
    expect: (f) => {
      rendersIn(f, 'Board');
      expect(file(f, 'src/index.css')).toContain('--primary: #9333ea;');
    },
  },
  {
    name: 'expenses',
    prompt: 'Build an expense tracker',
    expect: (f) => {
      rendersIn(f, 'Expenses');
      expect(file(f, 'src/expenses.ts')).toContain('parseAmount');
    },
  },
  {
    name: 'store',
    prompt: 'Create an online store for my coffee roastery with testimonials and a newsletter',
    expect: (f) => {
      rendersIn(f, 'Store');
      rendersIn(f, 'Testimonials');
      rendersIn(f, 'Newsletter');
      expect(file(f, 'src/store.ts')).toContain('Ethiopia Guji');
    },
  },
  {
    name: 'shopping-list',
    prompt: 'A shopping list for my groceries',
    expect: (f) => {
      rendersIn(f, 'TodoList');
      expect(file(f, 'src/components/TodoList.tsx')).toContain('Add item');
    },
  },
  // Every example chip of the landing page builds (what each contains: offline-features.spec.ts).
  ...LANDING_EXAMPLES.map(
    (example): BuildCase => ({
      name: `example-${example.label.toLowerCase().replace(/\W+/g, '-')}`,
      prompt: example.prompt,
      expect: (f) => expect(file(f, 'src/site.ts')).toContain('name:'),
    }),
  ),
];

interface EditCase {
  readonly name: string;
  /** The app to start from (a BUILDS name) or 'starter'. */
  readonly from: string;
  readonly prompts: readonly string[];
  /** What each prompt is read as (default: all edits). */
  readonly kinds?: readonly ('build' | 'edit')[];
  readonly expect: (files: ReadonlyMap<string, string>, before: ReadonlyMap<string, string>, results: readonly DriveResult[]) => void;
}

const EDITS: readonly EditCase[] = [
  {
    name: 'rename',
    from: 'landing',
    prompts: ['Change the title to Roast & Co'],
    expect: (f, _b, [r]) => {
      expect(file(f, 'index.html')).toContain('<title>Roast &amp; Co</title>');
      expect(file(f, 'src/site.ts')).toContain("name: 'Roast & Co'");
      expect(r?.operations.every((o) => o.type === 'edit_file')).toBe(true);
    },
  },
  {
    name: 'dark',
    from: 'todo',
    prompts: ['Make it dark'],
    expect: (f, b) => {
      expect(file(f, 'src/index.css')).toContain('color-scheme: dark;');
      expect(file(b, 'src/index.css')).toContain('color-scheme: light;');
    },
  },
  {
    name: 'primary-colour',
    from: 'dashboard',
    prompts: ['Use teal as the primary colour'],
    expect: (f) => expect(file(f, 'src/index.css')).toContain('--primary: #0f766e;'),
  },
  {
    name: 'add-section',
    from: 'landing',
    prompts: ['Add a team section and a newsletter'],
    expect: (f) => {
      rendersIn(f, 'Team');
      rendersIn(f, 'Newsletter');
      expect(file(f, 'src/components/Header.tsx')).toContain("{ href: '#team', label: 'Team' },");
      const app = file(f, 'src/App.tsx');
      expect(app.indexOf('<Newsletter />')).toBeLessThan(app.indexOf('<CallToAction />'));
    },
  },
  {
    name: 'remove-section',
    from: 'landing',
    prompts: ['Remove the testimonials'],
    expect: (f) => {
      expect(file(f, 'src/App.tsx')).not.toContain('Testimonials');
      expect(f.has('src/components/Testimonials.tsx')).toBe(false);
      expect(file(f, 'src/components/Header.tsx')).not.toContain('#testimonials');
    },
  },
  {
    name: 'add-pages',
    from: 'portfolio',
    prompts: ['Add an about page', 'Add a pricing page at /plans'],
    expect: (f) => {
      expect(file(f, 'src/routes.tsx')).toContain("{ path: '/about', label: 'About', component: AboutPage },");
      expect(file(f, 'src/routes.tsx')).toContain("{ path: '/plans', label: 'Pricing', component: PricingPage },");
      expect(file(f, 'src/main.tsx')).toContain("import { App } from './routes';");
      expect(file(f, 'src/App.tsx')).toContain('export function HomePage()');
      expect(file(f, 'src/components/Header.tsx')).toContain("{ href: '#/about', label: 'About' },");
      expect(f.has('src/router.tsx')).toBe(true);
    },
  },
  {
    name: 'button',
    from: 'landing',
    prompts: ['Change the button text to Order now'],
    expect: (f) => {
      expect(file(f, 'src/components/Hero.tsx')).toContain('Order now');
      expect(file(f, 'src/components/Header.tsx')).toContain('Order now');
      expect(file(f, 'src/components/Hero.tsx')).not.toContain('See the menu');
    },
  },
  {
    name: 'replace-text',
    from: 'todo',
    prompts: ['Replace "Add task" with "Add to my list"'],
    expect: (f) => expect(file(f, 'src/components/TodoList.tsx')).toContain('Add to my list'),
  },
  {
    name: 'starter-heading',
    from: 'starter',
    prompts: ['Change the heading to Hello there'],
    expect: (f) => expect(file(f, 'src/App.tsx')).toMatch(/<h1[^>]*>Hello there<\/h1>/),
  },
  {
    name: 'starter-page',
    from: 'starter',
    prompts: ['Add a calculator page'],
    expect: (f) => {
      expect(file(f, 'src/routes.tsx')).toContain("{ path: '/calculator', label: 'Calculator', component: CalculatorPage },");
      expect(f.has('src/calculator.ts')).toBe(true);
      expect(file(f, 'src/main.tsx')).toContain("import './index.css';");
    },
  },
  {
    name: 'multi',
    from: 'blog',
    prompts: ['Make it dark and add a newsletter section', 'Change the subtitle to Trails, gear and muddy boots'],
    expect: (f) => {
      expect(file(f, 'src/index.css')).toContain('color-scheme: dark;');
      rendersIn(f, 'Newsletter');
      expect(file(f, 'src/site.ts')).toContain("tagline: 'Trails, gear and muddy boots'");
    },
  },
  {
    name: 'font-corners',
    from: 'notes',
    prompts: ['Use a monospace font and rounder corners'],
    expect: (f) => {
      expect(file(f, 'src/index.css')).toContain('--font: ui-monospace');
      expect(file(f, 'src/index.css')).toContain('--radius: 22px;');
    },
  },
  {
    name: 'rename-and-heading',
    from: 'calculator',
    prompts: ['Rename the app to Pocket Calc', "Change the heading to What's 2 + 2?"],
    expect: (f) => {
      expect(file(f, 'src/site.ts')).toContain("name: 'Pocket Calc'");
      expect(file(f, 'src/components/Hero.tsx')).toContain('What’s 2 + 2?');
    },
  },
  {
    name: 'rebuild-with-pages',
    from: 'starter',
    prompts: ['Add a FAQ page', 'Build an expense tracker'],
    kinds: ['edit', 'build'],
    expect: (f) => {
      expect(file(f, 'src/App.tsx')).toContain('export function HomePage()');
      rendersIn(f, 'Expenses');
      expect(file(f, 'src/routes.tsx')).toContain('component: FaqPage');
    },
  },
  {
    name: 'dark-toggle',
    from: 'todo',
    prompts: ['Add a dark mode toggle'],
    expect: (f) => {
      expect(file(f, 'src/components/Header.tsx')).toContain('<ThemeToggle />');
      expect(file(f, 'src/index.css')).toContain('.dark {');
    },
  },
  {
    name: 'shopping-list-page',
    from: 'example-recipe-finder',
    prompts: ['add shopping list', 'add a dark mode toggle'],
    expect: (f) => {
      expect(file(f, 'src/routes.tsx')).toContain('<Header />');
      expect(file(f, 'src/components/Header.tsx')).toContain("{ href: '#/shopping-list', label: 'Shopping List' },");
      expect(file(f, 'src/components/Recipes.tsx')).toContain('toggleFavourite');
    },
  },
  {
    // Issue 18: the attached image as the logo and at the top of the hero (a turn has put it in public/attachments/).
    name: 'logo-and-hero',
    from: 'landing',
    prompts: [
      appendAttachments('use this as the logo', [{ path: '/attachments/logo-1a2b3c4d.png', fileName: 'logo-1a2b3c4d.png', contentType: 'image/png', name: 'logo.png' }]),
      appendAttachments('use this as the hero image', [{ path: '/attachments/cafe-1a2b3c4e.jpg', fileName: 'cafe-1a2b3c4e.jpg', contentType: 'image/jpeg', name: 'cafe.jpg' }]),
    ],
    expect: (f) => {
      expect(file(f, 'src/components/Header.tsx')).toContain('src="/attachments/logo-1a2b3c4d.png" alt={`${site.name} logo`}');
      expect(file(f, 'src/components/Hero.tsx')).toContain('<img className="hero-image" src="/attachments/cafe-1a2b3c4e.jpg"');
    },
  },
  {
    name: 'habit-page',
    from: 'blog',
    prompts: ['Add a habit tracker page'],
    expect: (f) => expect(file(f, 'src/pages/HabitTrackerPage.tsx')).toContain('<Habits />'),
  },
  {
    name: 'remove-then-add',
    from: 'pricing',
    prompts: ['Remove the FAQ', 'Add testimonials'],
    expect: (f) => {
      expect(f.has('src/components/Faq.tsx')).toBe(false);
      rendersIn(f, 'Testimonials');
    },
  },
];

const label = existsSync(DEFAULT_BWRAP_PATH) ? 'in bubblewrap' : 'without bubblewrap';

/** Makes a sandbox from the starter and turns its files into `files` through the host's own file operations. */
async function sandboxWith(host: LocalSandboxHost, id: string, files: ReadonlyMap<string, string>): Promise<string> {
  await host.ensure(id);
  const starter = starterFiles();
  for (const path of starter.keys()) if (!files.has(path)) await host.deleteFile(id, path);
  for (const [path, content] of files) if (starter.get(path) !== content) await host.writeFile(id, path, content);
  return id;
}

/** The sandbox's find-errors, as a readable failure ('' when the project type-checks and builds). */
async function check(host: LocalSandboxHost, id: string): Promise<string> {
  const scan: ErrorScan = await host.findErrors(id);
  if (scan.errorCount === 0) return '';
  return `${id}: ${scan.errorCount} error(s)\n${scan.errors.map((e) => `  ${e.file}:${e.line}:${e.column} ${e.message}`).join('\n')}`;
}

describe(`offline assistant: generated apps type-check and build in a real sandbox (${label})`, () => {
  let host: LocalSandboxHost;
  let close: () => Promise<void>;
  const built = new Map<string, ReadonlyMap<string, string>>();

  beforeAll(async () => {
    let root: string;
    ({ root, close } = await tempSandboxRoot('kiln-ai-builds-'));
    host = new LocalSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR });
    await host.prepareTemplate();
  }, 300_000);
  afterAll(async () => {
    await host?.stopAll();
    if (!process.env['KEEP_AI_BUILDS']) await close?.();
  });

  it(`builds ${BUILDS.length} different apps and ${EDITS.length} edit scenarios that all type-check and build`, async () => {
    const starter = starterFiles();
    const projects: string[] = [];
    for (const c of BUILDS) {
      const result = await drive(assistant, c.prompt, starter);
      expect(result.plan.kind).toBe('build');
      expect(result.plan.tasks.length).toBeGreaterThanOrEqual(1);
      expect(result.plan.tasks.length).toBeLessThanOrEqual(4);
      c.expect(result.files, result);
      built.set(c.name, result.files);
      projects.push(await sandboxWith(host, `build-${c.name}`, result.files));
    }
    let editCount = 0;
    for (const c of EDITS) {
      const before = c.from === 'starter' ? starter : built.get(c.from);
      if (!before) throw new Error(`no app ${c.from}`);
      let files = before;
      const results: DriveResult[] = [];
      const history: { role: 'user' | 'assistant'; content: string }[] = [{ role: 'user', content: BUILDS.find((b) => b.name === c.from)?.prompt ?? 'Starter' }];
      for (const prompt of c.prompts) {
        const result = await drive(assistant, prompt, files, history);
        expect(result.plan.kind).toBe(c.kinds?.[results.length] ?? 'edit');
        expect(result.operations.length).toBeGreaterThan(0);
        results.push(result);
        files = result.files;
        history.push({ role: 'user', content: prompt }, { role: 'assistant', content: result.text });
        editCount += 1;
      }
      c.expect(files, before, results);
      projects.push(await sandboxWith(host, `edit-${c.name}`, files));
    }
    expect(editCount).toBeGreaterThanOrEqual(10);
    // Every project was really written: its files in the sandbox are the generated ones.
    expect(await host.readFile('build-todo', 'src/todos.ts')).toBe(built.get('todo')?.get('src/todos.ts'));
    // Two scans at a time (each is a type-check and a build side by side) on a 2-core machine.
    const failures: string[] = [];
    const queue = [...projects];
    await Promise.all(
      [0, 1].map(async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          const failure = await check(host, id);
          if (failure) failures.push(failure);
        }
      }),
    );
    expect(failures).toEqual([]);
  }, 900_000);

  it('builds the data-backed apps (a database connected): @supabase/supabase-js installed through the registry, then tsc and vite pass', async () => {
    const database = { connected: true as const, tables: [] };
    const failures: string[] = [];
    for (const [table, prompt] of Object.entries(DATA_PROMPTS)) {
      const result = await drive(assistant, prompt, starterFiles(), [], database);
      expect(result.files.get('src/lib/supabase.ts')).toContain('createClient');
      expect(JSON.parse(result.files.get('package.json') ?? '{}').dependencies[SUPABASE_PACKAGE.name]).toBe(SUPABASE_PACKAGE.version);
      const id = await sandboxWith(host, `data-${table}`, result.files);
      // The check installs the added dependency (the sandbox's dependency cache, npm through the registry proxy).
      const failure = await check(host, id);
      if (failure) failures.push(failure);
      expect(await host.readFile(id, `src/data/${table}.ts`)).toContain(`.from('${table}')`);
    }
    // Issue 18's live apps: the photo gallery (storage) and the live guest book (realtime).
    for (const [name, prompt] of Object.entries(LIVE_PROMPTS)) {
      const result = await drive(assistant, prompt, starterFiles(), [], database);
      const failure = await check(host, await sandboxWith(host, `live-${name}`, result.files));
      if (failure) failures.push(failure);
    }
    // Started over from a local todo list: the local list's files stay beside the new ones and all build.
    const local = await drive(assistant, 'A todo list app called Chores', starterFiles(), [], database);
    const over = await drive(assistant, `Start over with ${DATA_PROMPTS.todos}`, local.files, [{ role: 'user', content: 'A todo list app called Chores' }], database);
    expect(over.files.get('src/App.tsx')).toContain('<TodoBoard />');
    const failure = await check(host, await sandboxWith(host, 'data-over-local', over.files));
    if (failure) failures.push(failure);
    expect(failures).toEqual([]);
  }, 900_000);

  it('reports what does not compile: a type error, and an import Vite cannot resolve', async () => {
    const starter = starterFiles();
    const typeError = new Map(starter).set('src/App.tsx', "export function App() {\n  const count: number = 'one';\n  return <p>{count}</p>;\n}\n");
    const buildError = new Map(starter).set('src/App.tsx', "import './missing.css';\n\nexport function App() {\n  return <p>hello</p>;\n}\n");
    const types = await check(host, await sandboxWith(host, 'broken-types', typeError));
    const build = await check(host, await sandboxWith(host, 'broken-build', buildError));
    expect(types).toMatch(/src\/App\.tsx:2:\d+ .*Type 'string' is not assignable to type 'number'/);
    expect(build).toMatch(/missing\.css/);
  }, 120_000);
});
