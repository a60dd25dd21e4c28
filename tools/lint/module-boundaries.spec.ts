// Proves that the architecture rules in /eslint.config.mjs bite (STYLE.md § Boundaries).
// Each probe is linted with the real config as if it were a file inside a real project
// (lintText with a virtual path: the file is never written), and the test asserts which
// rules report it — so removing or weakening a rule makes this spec fail.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const NX = '@nx/enforce-module-boundaries';
const SYNTAX = 'no-restricted-syntax';
const GLOBALS = 'no-restricted-globals';
const IMPORTS = '@typescript-eslint/no-restricted-imports';
const REQUIRE = '@typescript-eslint/no-require-imports';

const DOMAIN = 'libs/domain/src/__lint_probe__.ts';
const DOMAIN_SPEC = 'libs/domain/src/__lint_probe__.spec.ts';
const DOMAIN_TESTING = 'libs/domain/src/testing/__lint_probe__.ts';
const DOMAIN_TURN = 'libs/domain/src/ai/engine/__lint_probe__.ts';
const DOMAIN_TURN_TESTING = 'libs/domain/src/ai/engine/testing/__lint_probe__.ts';
const OFFLINE = 'libs/offline-assistant/src/__lint_probe__.ts';
const OFFLINE_SPEC = 'libs/offline-assistant/src/__lint_probe__.spec.ts';
const OFFLINE_TESTING_ENTRY = 'libs/offline-assistant/src/testing/index.ts';
const ADAPTERS = 'libs/adapters/src/__lint_probe__.ts';
const ADAPTERS_SPEC = 'libs/adapters/src/postgres/__lint_probe__.int.spec.ts';
const ADAPTERS_TESTING_ENTRY = 'libs/adapters/src/testing/index.ts';
const API = 'apps/api/src/__lint_probe__.ts';
const API_SPEC = 'apps/api/src/__lint_probe__.e2e.spec.ts';
const API_TESTING = 'apps/api/src/testing/__lint_probe__.ts';
const API_NESTED_TESTING = 'apps/api/src/auth/testing/__lint_probe__.ts';
const WEB = 'apps/web/src/__lint_probe__.ts';
const WEB_TSX = 'apps/web/src/__lint_probe__.view.tsx';
const WEB_SPEC = 'apps/web/src/__lint_probe__.vm.spec.ts';
const WEB_E2E = 'apps/web-e2e/tests/__lint_probe__.ts';

let eslint: ESLint;

beforeAll(async () => {
  eslint = new ESLint({ cwd: repoRoot });
  // The first lint loads eslint.config.mjs, which builds the Nx project graph: warm up here,
  // with room for a busy 2-core machine, so each case below runs well within the default timeout.
  await eslint.lintText('export {};\n', { filePath: path.join(repoRoot, DOMAIN) });
}, 60_000);

interface Report {
  ruleId: string | null;
  message: string;
}

async function lint(file: string, code: string): Promise<Report[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file), warnIgnored: true });
  // A parse error or an ignored path would make every assertion below meaningless.
  expect(result.messages.filter((m) => m.fatal || m.ruleId === null)).toEqual([]);
  return result.messages.map(({ ruleId, message }) => ({ ruleId, message }));
}

const ids = (reports: Report[]) => [...new Set(reports.map((r) => r.ruleId))].sort();

/** `import * as m from 'x'` used once, so the only possible reports are about the import itself. */
const importOf = (specifier: string) => `import * as m from '${specifier}';\nexport const probe = m;\n`;

describe('the config is wired to the probe paths', () => {
  it.each([
    DOMAIN,
    DOMAIN_SPEC,
    DOMAIN_TURN,
    DOMAIN_TURN_TESTING,
    OFFLINE,
    OFFLINE_SPEC,
    OFFLINE_TESTING_ENTRY,
    ADAPTERS,
    ADAPTERS_SPEC,
    ADAPTERS_TESTING_ENTRY,
    API,
    API_SPEC,
    API_TESTING,
    API_NESTED_TESTING,
    WEB,
    WEB_TSX,
    WEB_SPEC,
    WEB_E2E,
  ])('%s is linted with the boundary rule on', async (file) => {
    const abs = path.join(repoRoot, file);
    expect(await eslint.isPathIgnored(abs)).toBe(false);
    const config = await eslint.calculateConfigForFile(abs);
    expect(config.rules[NX]?.[0]).toBe(2);
  });
});

describe('violations are reported by the expected rule', () => {
  // Every row has five cells: jest.each would pass a `done` callback in a missing fifth one.
  it.each<[string, string, string, string[], RegExp | undefined]>([
    // libs/domain: relative imports only, whatever the specifier
    ['domain imports node:fs', DOMAIN, importOf('node:fs'), [SYNTAX], /import only relative files/],
    ['domain imports fs (bare built-in)', DOMAIN, importOf('fs'), [SYNTAX], undefined],
    ['domain imports fast-check outside a test', DOMAIN, importOf('fast-check'), [SYNTAX], undefined],
    ['domain imports @jest/globals outside a test', DOMAIN, importOf('@jest/globals'), [SYNTAX], undefined],
    ['domain imports any package (rxjs)', DOMAIN, importOf('rxjs'), [SYNTAX], undefined],
    ['domain type-imports a package', DOMAIN, "import type { Stats } from 'node:fs';\nexport type Probe = Stats;\n", [SYNTAX], undefined],
    ['domain uses an import() type', DOMAIN, "export type Probe = import('node:fs').Stats;\n", [SYNTAX], undefined],
    ['domain re-exports a package', DOMAIN, "export { of } from 'rxjs';\n", [SYNTAX], undefined],
    ['domain re-exports * from a package', DOMAIN, "export * from 'typeorm';\n", [SYNTAX], undefined],
    ['domain uses dynamic import()', DOMAIN, "export const probe = () => import('./x.js');\n", [SYNTAX], undefined],
    ['domain calls require()', DOMAIN, "export const probe = require('node:fs');\n", [SYNTAX, REQUIRE], undefined],
    // another project: Nx's tag rule (reported as a cycle, since adapters depends on domain) and purity
    ['domain imports @kiln/adapters', DOMAIN, importOf('@kiln/adapters'), [NX, SYNTAX], undefined],
    ['domain imports @kiln/offline-assistant', DOMAIN, importOf('@kiln/offline-assistant'), [NX, SYNTAX], /"@kiln\/domain" and "@kiln\/offline-assistant"/],
    // Nx cannot resolve '@kiln/web' (no main/exports), so no-restricted-imports covers apps
    ['domain imports @kiln/web', DOMAIN, importOf('@kiln/web'), [IMPORTS, SYNTAX], /Apps are entry points/],
    // libs/domain: no hidden clock or randomness
    ['domain calls Date.now()', DOMAIN, 'export const probe = Date.now();\n', [SYNTAX], /inject a Clock/],
    ['domain calls new Date()', DOMAIN, 'export const probe = new Date();\n', [SYNTAX], /inject a Clock/],
    ['domain calls Date()', DOMAIN, 'export const probe = Date();\n', [SYNTAX], /inject a Clock/],
    ['domain calls Math.random()', DOMAIN, 'export const probe = Math.random();\n', [SYNTAX], /inject a RandomSource/],
    ['domain passes Date.now around', DOMAIN, 'export const probe = Date.now;\n', [SYNTAX], /inject a Clock/],
    ['domain calls crypto.randomUUID()', DOMAIN, 'export const probe = crypto.randomUUID();\n', [GLOBALS], /IdGenerator/],
    ['domain reads process.env', DOMAIN, 'export const probe = process.env.X;\n', [GLOBALS], undefined],
    // domain tests: fast-check and @jest/globals, but no Node modules or other packages
    ['domain spec imports node:fs', DOMAIN_SPEC, importOf('node:fs'), [SYNTAX], /no Node modules/],
    ['domain spec imports node:crypto dynamically', DOMAIN_SPEC, "export const probe = () => import('node:crypto');\n", [SYNTAX], undefined],
    ['domain spec imports a package', DOMAIN_SPEC, importOf('rxjs'), [SYNTAX], undefined],
    ['domain test support imports node:fs', DOMAIN_TESTING, importOf('node:fs'), [SYNTAX], undefined],
    // libs/offline-assistant: the domain only — never the adapters that choose it (Nx reports it as
    // a cycle, since adapters depends on it), not even from a spec, nor an app
    ['offline-assistant imports @kiln/adapters', OFFLINE, importOf('@kiln/adapters'), [NX], /"@kiln\/offline-assistant" and "@kiln\/adapters"/],
    ['offline-assistant spec imports @kiln/adapters/testing', OFFLINE_SPEC, importOf('@kiln/adapters/testing'), [NX], /"@kiln\/offline-assistant" and "@kiln\/adapters"/],
    ['offline-assistant imports @kiln/api', OFFLINE, importOf('@kiln/api'), [NX, IMPORTS], /Apps are entry points/],
    ['offline-assistant deep-imports domain files', OFFLINE, importOf('@kiln/domain/src/ai/ai-assistant.port.js'), [IMPORTS], /public entry point/],
    // libs/adapters: domain and adapters only
    ['adapters imports @kiln/api', ADAPTERS, importOf('@kiln/api'), [NX], undefined],
    ['adapters imports @kiln/web', ADAPTERS, importOf('@kiln/web'), [IMPORTS], /Apps are entry points/],
    ['adapters deep-imports a web file', ADAPTERS, importOf('@kiln/web/src/container.js'), [NX, IMPORTS], /Imports of apps are forbidden/],
    ['adapters imports a web file by relative path', ADAPTERS, importOf('../../../apps/web/src/container.js'), [NX], /must begin with a npm scope/],
    ['adapters deep-imports domain files', ADAPTERS, importOf('@kiln/domain/src/shared/result.js'), [IMPORTS], /public entry point/],
    // apps/api: domain and adapters, never the web
    ['api imports @kiln/web', API, importOf('@kiln/web'), [IMPORTS], /Apps are entry points/],
    // apps/web: domain only, no server SDK, no Node built-in
    ['web imports @kiln/adapters', WEB, importOf('@kiln/adapters'), [NX, IMPORTS], /"scope:web" can only depend on libs tagged with "scope:domain"/],
    ['web imports @kiln/api', WEB, importOf('@kiln/api'), [NX, IMPORTS], undefined],
    ['web imports @kiln/offline-assistant', WEB, importOf('@kiln/offline-assistant'), [NX, IMPORTS], /"scope:web" can only depend on libs tagged with "scope:domain"/],
    ['web imports @nestjs/common', WEB, importOf('@nestjs/common'), [NX, IMPORTS], /not allowed to import "@nestjs\/common"/],
    ['web imports pg', WEB, importOf('pg'), [IMPORTS], /server SDK/],
    ['web imports typeorm', WEB, importOf('typeorm'), [IMPORTS], undefined],
    ['web imports @ai-sdk/anthropic', WEB, importOf('@ai-sdk/anthropic'), [IMPORTS], undefined],
    ['web imports node:fs', WEB, importOf('node:fs'), [IMPORTS], /browser/],
    ['web imports crypto (bare built-in)', WEB, importOf('crypto'), [IMPORTS], /browser/],
    ['web view (.tsx) imports express', WEB_TSX, importOf('express'), [NX, IMPORTS], undefined],
    // production code (not a spec, not under testing/) never imports test code
    ['api imports @kiln/domain/testing', API, importOf('@kiln/domain/testing'), [IMPORTS], /never imports test code/],
    ['api imports @kiln/domain/contracts', API, importOf('@kiln/domain/contracts'), [IMPORTS], /never imports test code/],
    ['api imports @kiln/adapters/testing', API, importOf('@kiln/adapters/testing'), [IMPORTS], /never imports test code/],
    ['api imports @kiln/offline-assistant/testing', API, importOf('@kiln/offline-assistant/testing'), [IMPORTS], /never imports test code/],
    ['api loads @kiln/offline-assistant/testing with import()', API, "export const probe = () => import('@kiln/offline-assistant/testing');\n", [SYNTAX], /never imports test code/],
    ['adapters imports @kiln/offline-assistant/testing', ADAPTERS, importOf('@kiln/offline-assistant/testing'), [IMPORTS], /never imports test code/],
    ['offline-assistant imports its testing/ folder', OFFLINE, importOf('./testing/drive-assistant.js'), [IMPORTS], /never imports test code/],
    ['api imports its testing/ folder', API, importOf('./testing/e2e.js'), [IMPORTS], /never imports test code/],
    ['api imports a nested testing/ folder', API, importOf('./auth/testing/auth-e2e.harness.js'), [IMPORTS], /never imports test code/],
    ['api imports a testing/ folder’s index', API, importOf('./testing'), [IMPORTS], /never imports test code/],
    ['api type-imports test code', API, "import type { TestApp } from './testing/e2e.js';\nexport type Probe = TestApp;\n", [IMPORTS], /never imports test code/],
    ['api re-exports test code', API, "export * from './testing/e2e.js';\n", [IMPORTS], /never imports test code/],
    ['api re-exports names from test code', API, "export { startTestApp } from '../src/testing/e2e.js';\n", [IMPORTS], /never imports test code/],
    ['api loads test code with import()', API, "export const probe = () => import('./testing/e2e.js');\n", [SYNTAX], /never imports test code/],
    ['api loads @kiln/domain/testing with import()', API, "export const probe = () => import('@kiln/domain/testing');\n", [SYNTAX], /never imports test code/],
    ['api requires test code', API, "export const probe = require('@kiln/domain/testing');\n", [SYNTAX, REQUIRE], /never imports test code/],
    ['api uses an import() type of test code', API, "export type Probe = import('./testing/e2e.js').TestApp;\n", [SYNTAX], /never imports test code/],
    ['adapters imports @kiln/domain/testing', ADAPTERS, importOf('@kiln/domain/testing'), [IMPORTS], /never imports test code/],
    ['adapters imports @kiln/domain/contracts', ADAPTERS, importOf('@kiln/domain/contracts'), [IMPORTS], /never imports test code/],
    ['adapters index re-exports its testing entry', ADAPTERS, "export * from './testing.js';\n", [IMPORTS], /never imports test code/],
    ['adapters imports a test helper by relative path', ADAPTERS, importOf('./postgres/testing/test-database.js'), [IMPORTS], /never imports test code/],
    ['domain imports its testing/ folder', DOMAIN, importOf('./testing/fixed-clock.js'), [IMPORTS], /never imports test code/],
    ['domain re-exports the in-memory adapters', DOMAIN, "export * from './testing/index.js';\n", [IMPORTS], /never imports test code/],
    ['domain imports testing/ from a sub-folder', DOMAIN_TURN, importOf('../../testing/in-memory-turn-repository.js'), [IMPORTS], /never imports test code/],
    ['domain imports a sibling testing/ folder', DOMAIN_TURN, importOf('./testing/turn-test-kit.js'), [IMPORTS], /never imports test code/],
    ['web imports @kiln/domain/testing', WEB, importOf('@kiln/domain/testing'), [IMPORTS], /never imports test code/],
    ['web imports its testing/ folder', WEB, importOf('./testing/api-fixtures.js'), [IMPORTS], /never imports test code/],
    ['web view imports test fakes', WEB_TSX, importOf('./testing/ui-fakes.js'), [IMPORTS], /never imports test code/],
  ])('%s', async (_name, file, code, expectedRules, message) => {
    const reports = await lint(file, code);
    // Every expected rule reports; anything else is at most another boundary rule (e.g. Nx also
    // bans a server SDK once it is installed). Generic rules must not be what catches it.
    expect(ids(reports)).toEqual(expect.arrayContaining(expectedRules));
    for (const id of ids(reports)) expect([NX, SYNTAX, GLOBALS, IMPORTS, REQUIRE]).toContain(id);
    if (message) expect(reports.map((r) => r.message).join('\n')).toMatch(message);
  });
});

describe('allowed code is not reported', () => {
  it.each<[string, string, string]>([
    ['domain relative import', DOMAIN, "import { ok } from './shared/result.js';\nexport const probe = ok(1);\n"],
    ['domain relative re-export', DOMAIN, "export * from './shared/result.js';\nexport type { Clock } from './shared/clock.port.js';\n"],
    [
      'domain uses an injected clock and parses dates',
      DOMAIN,
      "import type { Clock } from './shared/clock.port.js';\n" +
        'export const probe = (clock: Clock) => [clock.now(), new Date(0), new Date(clock.now().getTime()), Date.UTC(2024, 0, 1)];\n',
    ],
    [
      'domain spec imports fast-check, @jest/globals and relative files',
      DOMAIN_SPEC,
      "import { expect, it } from '@jest/globals';\nimport fc from 'fast-check';\nimport { ok } from './shared/result.js';\n" +
        'it("holds", () => fc.assert(fc.property(fc.integer(), (n) => { expect(ok(n).ok).toBe(true); })));\n',
    ],
    ['domain test support imports fast-check', DOMAIN_TESTING, importOf('fast-check')],
    ['offline-assistant imports @kiln/domain', OFFLINE, importOf('@kiln/domain')],
    ['offline-assistant spec imports @kiln/domain/testing and its test helpers', OFFLINE_SPEC, importOf('@kiln/domain/testing') + "import { drive } from './testing/drive-assistant.js';\nexport const d = drive;\n"],
    ['offline-assistant testing entry re-exports its test helpers', OFFLINE_TESTING_ENTRY, "export * from './drive-assistant.js';\n"],
    ['adapters imports @kiln/domain', ADAPTERS, importOf('@kiln/domain')],
    ['adapters imports @kiln/offline-assistant', ADAPTERS, importOf('@kiln/offline-assistant')],
    ['adapters spec imports @kiln/offline-assistant/testing', ADAPTERS_SPEC, importOf('@kiln/offline-assistant/testing')],
    ['adapters spec imports @kiln/domain/testing', ADAPTERS_SPEC, importOf('@kiln/domain/testing')],
    ['adapters imports node:crypto', ADAPTERS, importOf('node:crypto')],
    ['api imports @kiln/domain', API, importOf('@kiln/domain')],
    ['api imports @kiln/adapters', API, importOf('@kiln/adapters')],
    ['api imports @kiln/offline-assistant', API, importOf('@kiln/offline-assistant')],
    ['api imports @nestjs/common', API, importOf('@nestjs/common')],
    ['web imports @kiln/domain', WEB, importOf('@kiln/domain')],
    ['web imports mobx', WEB, importOf('mobx')],
    ['web view imports react', WEB_TSX, "import { useState } from 'react';\nexport const Probe = () => { const [n] = useState(0); return <p>{n}</p>; };\n"],
    // test code may import test code
    ['adapters spec imports the contracts and test helpers', ADAPTERS_SPEC, importOf('@kiln/domain/contracts') + "import { createTestDatabase } from './testing/test-database.js';\nexport const db = createTestDatabase;\n"],
    ['adapters testing entry re-exports the test helpers', ADAPTERS_TESTING_ENTRY, "export * from '../postgres/testing/test-database.js';\n"],
    [
      'api spec imports every kind of test code',
      API_SPEC,
      "import * as a from '@kiln/domain/testing';\nimport * as b from '@kiln/adapters/testing';\nimport * as c from './testing/e2e.js';\n" +
        "import * as d from './auth/testing/auth-e2e.harness.js';\nexport const probe = [a, b, c, d, () => import('./testing/e2e.js')];\n",
    ],
    ['api test support (testing/) imports test code', API_TESTING, "import * as a from '@kiln/domain/testing';\nimport * as b from '../auth/testing/auth-e2e.harness.js';\nexport const probe = [a, b];\n"],
    ['api test support in a nested testing/ folder imports test code', API_NESTED_TESTING, "import * as a from '../../testing/e2e.js';\nexport const probe = a;\n"],
    ['domain spec imports test support', DOMAIN_SPEC, importOf('./testing/fixed-clock.js')],
    ['domain test support in a sub-folder’s testing/ imports test support', DOMAIN_TURN_TESTING, importOf('../../../testing/in-memory-turn-repository.js')],
    ['web spec imports test fakes', WEB_SPEC, importOf('./testing/api-fixtures.js')],
    ['e2e app imports its own helpers', WEB_E2E, importOf('./testing/helpers.js')],
    ['production imports a file merely named like testing', API, importOf('./contesting/testing-ground.js')],
  ])('%s', async (_name, file, code) => {
    expect(await lint(file, code)).toEqual([]);
  });
});
