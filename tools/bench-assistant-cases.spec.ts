// The assistant evaluation's case list (bench/assistant/cases.mjs, `npm run bench assistant`)
// stays a fair test: enough cases of both kinds, every case checkable, every landing page example
// built, and every expectation one the checks know. Also the checks' pure helpers.
import { describe, expect, it } from '@jest/globals';
import { LANDING_EXAMPLES } from '@kiln/domain';
// @ts-expect-error plain ESM benchmark modules, no type declarations
import { CASES, LANDING_PROMPTS } from '../bench/assistant/cases.mjs';
// @ts-expect-error plain ESM benchmark modules, no type declarations
import { CHECKS, hueOf, rootVariables } from '../bench/assistant/checks.mjs';

interface Case {
  id: string;
  kind: 'build' | 'edit';
  prompt: string;
  landing?: string;
  outcome?: string;
  setup?: { turn?: string; write?: { path: string; content: string } }[];
  expect: { check: string }[];
}
const cases = CASES as Case[];

describe('the assistant evaluation set', () => {
  it('has at least 30 cases: at least 15 first builds and 15 edits of a built app', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(cases.filter((c) => c.kind === 'build').length).toBeGreaterThanOrEqual(15);
    expect(cases.filter((c) => c.kind === 'edit').length).toBeGreaterThanOrEqual(15);
  });

  it('gives every case a unique id, a prompt and at least one expectation the checks know', () => {
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) {
      expect(c.prompt.trim()).not.toBe('');
      expect(c.expect.length).toBeGreaterThan(0);
      for (const e of c.expect) expect(Object.keys(CHECKS)).toContain(e.check);
    }
  });

  it('edits an app that a setup turn built first; builds start from the starter', () => {
    for (const c of cases) {
      if (c.kind === 'edit') expect(c.setup?.some((s) => s.turn)).toBe(true);
      else expect(c.setup ?? []).toEqual([]);
    }
  });

  it('builds every landing page example, word for word, as a first build', () => {
    for (const example of LANDING_EXAMPLES) {
      expect(LANDING_PROMPTS[example.label]).toBe(example.prompt);
      expect(cases.some((c) => c.kind === 'build' && c.landing === example.label && c.prompt === example.prompt)).toBe(true);
    }
  });

  it('covers the issue’s items', () => {
    const has = (check: string) => cases.some((c) => c.expect.some((e) => e.check === check));
    for (const check of ['darkToggle', 'themeKept', 'favourite', 'streak', 'pageInLayout', 'formValidation', 'checklist', 'search', 'filesKept', 'appName', 'nothingCharged']) expect(has(check)).toBe(true);
    expect(cases.some((c) => c.outcome === 'declined')).toBe(true);
    const pantry = cases.find((c) => c.prompt === 'save my favourite recipes with a heart button');
    expect(pantry?.setup?.map((s) => s.turn).filter(Boolean)).toEqual(['A recipe finder called Pantry', 'Add an about page']);
    expect(cases.some((c) => c.prompt === 'add a dark mode toggle')).toBe(true);
  });
});

describe('check helpers', () => {
  it('reads the :root variables of a stylesheet', () => {
    const css = ':root {\n  --primary: #15803d;\n  --radius: 12px;\n}\n.dark {\n  --primary: #fff;\n}\n';
    expect([...rootVariables(css)]).toEqual([
      ['--primary', '#15803d'],
      ['--radius', '12px'],
    ]);
    expect(rootVariables('').size).toBe(0);
  });

  it('finds the hue of a colour', () => {
    expect(Math.round(hueOf([21, 128, 61]).hue)).toBe(142);
    expect(Math.round(hueOf([79, 70, 229]).hue)).toBe(243);
    expect(hueOf([128, 128, 128]).saturation).toBe(0);
  });
});
