// The assistant evaluation set (`npm run bench assistant`, issue #14 item 17): what people ask of
// Kiln's AI, as data. Each case is a fresh project; `setup` runs first (turns and files a person
// wrote by hand), then the measured `prompt`. Every expectation is checked in Chromium on the live
// preview (through the API's preview proxy) or on the project's files; the checks are the
// functions of the same name in checks.mjs. Besides its own expectations, every case must end as
// its `outcome` says (default 'kept'), with find-errors 'checked' and 0 errors afterwards, and no
// console errors in the page.
//
// The expectations say what a person would check, not how the offline assistant happens to write
// it: words on the page, buttons found by their accessible names, state that survives a reload.

/** A file the person wrote by hand before the edit; it must survive the edit unchanged. */
const NOTES_MD = '# Kitchen notes\n\nBuy saffron before Friday. Grandma\'s soup needs two bay leaves.\n';
const writeNotes = { write: { path: 'src/notes.md', content: NOTES_MD } };

/** The landing page's example chips (libs/domain/src/ai/landing-examples.ts), word for word. */
export const LANDING_PROMPTS = {
  'Habit tracker': 'A habit tracker with daily streaks, reminders and a weekly progress chart',
  'Recipe finder': 'A recipe finder that suggests meals from the ingredients I already have',
  Portfolio: 'A portfolio site for a photographer with galleries, an about page and a contact form',
  'Team standups': 'An async standup app where my team posts daily updates and blockers',
  'Budget planner': 'A personal budget planner with categories, monthly limits and spending charts',
};

export const CASES = [
  // ── First builds ────────────────────────────────────────────────────────────────────────────
  {
    id: 'build-pantry',
    kind: 'build',
    prompt: 'A recipe finder where I can save favourite recipes, called Pantry',
    expect: [
      { check: 'text', words: ['Pantry', 'recipe'] },
      { check: 'favourite' },
      { check: 'search', term: 'pancake' },
    ],
  },
  {
    id: 'build-landing-habit-tracker',
    kind: 'build',
    landing: 'Habit tracker',
    prompt: LANDING_PROMPTS['Habit tracker'],
    expect: [
      { check: 'text', words: ['habit', 'streak', 'reminder', 'weekly progress'] },
      { check: 'streak' },
    ],
  },
  {
    id: 'build-landing-recipe-finder',
    kind: 'build',
    landing: 'Recipe finder',
    prompt: LANDING_PROMPTS['Recipe finder'],
    expect: [
      { check: 'text', words: ['recipe', 'ingredients'] },
      { check: 'search', term: 'soup' },
    ],
  },
  {
    id: 'build-landing-portfolio',
    kind: 'build',
    landing: 'Portfolio',
    prompt: LANDING_PROMPTS.Portfolio,
    expect: [
      { check: 'text', words: ['photograph', 'gallery', 'about', 'contact'] },
      { check: 'formValidation', submit: /send|submit|contact/i },
    ],
  },
  {
    id: 'build-landing-team-standups',
    kind: 'build',
    landing: 'Team standups',
    prompt: LANDING_PROMPTS['Team standups'],
    expect: [
      { check: 'text', words: ['standup', 'yesterday', 'today', 'blockers'] },
      { check: 'formValidation', submit: /post|share|send|submit/i },
    ],
  },
  {
    id: 'build-landing-budget-planner',
    kind: 'build',
    landing: 'Budget planner',
    prompt: LANDING_PROMPTS['Budget planner'],
    expect: [{ check: 'text', words: ['budget', 'categor', 'monthly limit', 'spending'] }],
  },
  {
    id: 'build-habit-streaks',
    kind: 'build',
    prompt: 'A habit tracker called Streaks',
    expect: [
      { check: 'text', words: ['Streaks', 'streak'] },
      { check: 'streak' },
    ],
  },
  {
    id: 'build-todo-chores',
    kind: 'build',
    prompt: 'A todo list app called Chores',
    expect: [
      { check: 'text', words: ['Chores'] },
      { check: 'checklist', add: 'Water the plants', persists: true },
    ],
  },
  {
    id: 'build-shopping-list',
    kind: 'build',
    prompt: 'A shopping list for my groceries',
    expect: [
      { check: 'text', words: ['shopping'] },
      { check: 'checklist', add: 'Oat milk', persists: true },
    ],
  },
  {
    id: 'build-contact-form',
    kind: 'build',
    prompt: 'A contact form for my bakery called Crumbs',
    expect: [
      { check: 'text', words: ['Crumbs', 'message'] },
      { check: 'formValidation', submit: /send|submit/i },
    ],
  },
  {
    id: 'build-signup-waitlist',
    kind: 'build',
    prompt: 'A sign up form for the waitlist of my app called Early Bird',
    expect: [
      { check: 'text', words: ['Early Bird', 'email', 'password'] },
      { check: 'formValidation', submit: /create|sign up|join|submit|register/i },
    ],
  },
  {
    id: 'build-notes-search',
    kind: 'build',
    prompt: 'A notes app called Jot with search',
    expect: [
      { check: 'text', words: ['Jot', 'Welcome', 'Ideas'] },
      { check: 'search', term: 'ideas' },
    ],
  },
  {
    id: 'build-kanban',
    kind: 'build',
    prompt: 'A kanban board for my side projects',
    expect: [
      { check: 'text', words: ['to do', 'done'] },
      { check: 'addItem', text: 'Write the launch post' },
    ],
  },
  {
    id: 'build-calculator',
    kind: 'build',
    prompt: 'A calculator',
    expect: [{ check: 'calculator', keys: ['7', '+', '8', '='], result: '15' }],
  },
  {
    id: 'build-gym-landing',
    kind: 'build',
    prompt: 'A landing page for a gym called Iron Hall with pricing and an FAQ',
    expect: [{ check: 'text', words: ['Iron Hall', 'pricing', 'FAQ'] }],
  },
  {
    id: 'build-candle-store',
    kind: 'build',
    prompt: 'An online store for handmade candles called Wick',
    expect: [
      { check: 'text', words: ['Wick', 'cart'] },
      { check: 'addToCart' },
    ],
  },

  // ── Edits of an app that exists ─────────────────────────────────────────────────────────────
  {
    id: 'edit-pantry-favourites',
    kind: 'edit',
    setup: [{ turn: 'A recipe finder called Pantry' }, { turn: 'Add an about page' }, writeNotes],
    prompt: 'save my favourite recipes with a heart button',
    expect: [
      { check: 'appName', name: 'Pantry' },
      { check: 'filesKept', paths: ['src/notes.md', 'src/site.ts'], pattern: /^src\/pages\/About/ },
      { check: 'text', route: '#/about', words: ['about', 'Pantry'] },
      { check: 'favourite' },
    ],
  },
  {
    id: 'edit-dark-toggle-blog',
    kind: 'edit',
    setup: [{ turn: 'A blog about hiking in teal' }, writeNotes],
    prompt: 'add a dark mode toggle',
    expect: [
      { check: 'darkToggle' },
      { check: 'themeKept' },
      { check: 'filesKept', paths: ['src/notes.md'] },
    ],
  },
  {
    id: 'edit-dark-toggle-todo',
    kind: 'edit',
    setup: [{ turn: 'A todo list app in green called Chores' }],
    prompt: 'Add a toggle to switch between light and dark mode',
    expect: [
      { check: 'darkToggle' },
      { check: 'themeKept' },
      { check: 'appName', name: 'Chores' },
      { check: 'checklist', add: 'Fold the laundry' },
    ],
  },
  {
    id: 'edit-dark-toggle-habits',
    kind: 'edit',
    setup: [{ turn: 'A habit tracker called Streaks' }],
    prompt: 'add a dark mode toggle',
    expect: [{ check: 'darkToggle' }, { check: 'themeKept' }, { check: 'streak' }],
  },
  {
    id: 'edit-favourites-survive-reload',
    kind: 'edit',
    setup: [{ turn: LANDING_PROMPTS['Recipe finder'] }],
    prompt: 'Let me save recipes as favourites with a heart, and keep them after a reload',
    expect: [{ check: 'favourite' }, { check: 'search', term: 'cookie' }],
  },
  {
    id: 'edit-about-page-layout',
    kind: 'edit',
    setup: [{ turn: 'A landing page for a gym called Iron Hall' }, writeNotes],
    prompt: 'Add an about page',
    expect: [
      { check: 'pageInLayout', route: '#/about', words: ['about'] },
      { check: 'appName', name: 'Iron Hall' },
      { check: 'filesKept', paths: ['src/notes.md', 'src/site.ts'] },
    ],
  },
  {
    id: 'edit-team-page-layout',
    kind: 'edit',
    setup: [{ turn: LANDING_PROMPTS.Portfolio }],
    prompt: 'Add a page called Team',
    expect: [{ check: 'pageInLayout', route: '#/team', words: ['team'] }],
  },
  {
    id: 'edit-contact-form-page',
    kind: 'edit',
    setup: [{ turn: 'A landing page for a gym called Iron Hall' }],
    prompt: 'Add a contact form page',
    expect: [
      { check: 'pageInLayout', route: '#/contact-form', words: ['message'] },
      { check: 'formValidation', route: '#/contact-form', submit: /send|submit/i },
    ],
  },
  {
    id: 'edit-shopping-list-page',
    kind: 'edit',
    setup: [{ turn: 'A recipe finder called Pantry' }, writeNotes],
    prompt: 'add shopping list',
    expect: [
      { check: 'pageInLayout', route: '#/shopping-list', words: ['shopping'] },
      { check: 'checklist', route: '#/shopping-list', add: 'Saffron', persists: true },
      { check: 'appName', name: 'Pantry' },
      { check: 'filesKept', paths: ['src/notes.md'] },
    ],
  },
  {
    id: 'edit-rename-app',
    kind: 'edit',
    setup: [{ turn: 'A recipe finder called Pantry' }, writeNotes],
    prompt: 'Rename the app to Larder',
    expect: [
      { check: 'text', words: ['Larder'] },
      { check: 'textAbsent', words: ['Pantry'] },
      { check: 'filesKept', paths: ['src/notes.md'] },
    ],
  },
  {
    id: 'edit-heading',
    kind: 'edit',
    setup: [{ turn: 'A landing page for a bakery called Crumbs' }],
    prompt: 'Change the heading to "Fresh bread every morning"',
    expect: [
      { check: 'text', words: ['Fresh bread every morning'] },
      { check: 'appName', name: 'Crumbs' },
    ],
  },
  {
    id: 'edit-primary-colour',
    kind: 'edit',
    setup: [{ turn: 'A blog about hiking' }, writeNotes],
    prompt: 'Use green as the primary colour',
    expect: [
      { check: 'primaryHue', from: 90, to: 170 },
      { check: 'filesKept', paths: ['src/notes.md', 'src/site.ts'] },
    ],
  },
  {
    id: 'edit-add-faq',
    kind: 'edit',
    setup: [{ turn: 'A landing page for a yoga studio called Still' }],
    prompt: 'Add an FAQ section',
    expect: [
      { check: 'text', words: ['FAQ', 'Still'] },
      { check: 'appName', name: 'Still' },
    ],
  },
  {
    id: 'edit-remove-section',
    kind: 'edit',
    setup: [{ turn: 'A landing page for a yoga studio called Still with testimonials and pricing' }],
    prompt: 'Remove the testimonials section',
    expect: [
      { check: 'textAbsent', words: ['testimonial'] },
      { check: 'text', words: ['Still', 'pricing'] },
    ],
  },
  {
    id: 'edit-habit-add-and-streak',
    kind: 'edit',
    setup: [{ turn: LANDING_PROMPTS['Habit tracker'] }, writeNotes],
    prompt: 'Add an about page',
    expect: [
      { check: 'pageInLayout', route: '#/about', words: ['about'] },
      { check: 'streak' },
      { check: 'filesKept', paths: ['src/notes.md'] },
    ],
  },
  {
    id: 'edit-unsupported-declined',
    kind: 'edit',
    setup: [{ turn: 'A todo list app called Chores' }, writeNotes],
    prompt: 'Add streaks with push notifications to my phone',
    outcome: 'declined',
    expect: [{ check: 'nothingCharged' }, { check: 'filesKept', all: true }, { check: 'text', words: ['Chores'] }],
  },
  {
    // "A new app never silently replaces an existing one" (docs/ai-api.md): asked without saying
    // so, the app stays — declined free, or made an edit that keeps the app.
    id: 'edit-new-app-not-replaced',
    kind: 'edit',
    setup: [{ turn: 'A landing page for a gym called Iron Hall' }, writeNotes],
    prompt: 'Build me a kanban board',
    outcome: 'not-replaced',
    expect: [{ check: 'appName', name: 'Iron Hall' }, { check: 'filesKept', paths: ['src/notes.md', 'src/site.ts', 'src/index.css'] }],
  },
  {
    // Asked in so many words: the plan waits for "Replace my app", even with auto-run; nothing
    // is charged or changed until then.
    id: 'edit-start-over-asks-first',
    kind: 'edit',
    setup: [{ turn: 'A landing page for a gym called Iron Hall' }, writeNotes],
    prompt: 'Start over: build a new kanban board app',
    outcome: 'awaiting-replace',
    expect: [{ check: 'nothingCharged' }, { check: 'filesKept', all: true }, { check: 'text', words: ['Iron Hall'] }],
  },
];
