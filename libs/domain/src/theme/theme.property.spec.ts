import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { bracesBalanced, mergeTheme, type Theme } from './theme.js';

const names = fc.constantFrom('background', 'foreground', 'primary', 'primary-foreground', 'ring', 'radius', 'x-1');
const value = fc.stringMatching(/^[a-z0-9 .%()/#-]{1,16}$/).filter((v) => v.trim() !== '');
// `radius` comes from theme.radius (it wins over a light variable of that name).
const varNames = fc.constantFrom('background', 'foreground', 'primary', 'primary-foreground', 'ring', 'x-1');
const vars = fc.dictionary(varNames, value, { maxKeys: 5 });
const font = fc.constantFrom('Inter', 'Open+Sans', 'DM%20Sans').map((f) => `https://fonts.googleapis.com/css2?family=${f}:wght@400;700`);
const theme: fc.Arbitrary<Theme> = fc.record({
  name: fc.constant('T'),
  light: vars,
  dark: vars,
  fonts: fc.array(font, { maxLength: 2 }),
  radius: fc.option(fc.constantFrom('0.5rem', '1rem'), { nil: undefined }),
});

// Stylesheets built from the pieces real ones have, plus stray braces now and then.
const decls = fc.array(fc.tuple(names, value).map(([n, v]) => `  --${n}: ${v};`), { maxLength: 3 }).map((l) => l.join('\n'));
const piece = fc.oneof(
  fc.constant("@import 'tailwindcss';"),
  fc.constant("@import url('https://fonts.googleapis.com/css2?family=Roboto');"),
  decls.map((d) => `:root {\n${d}\n}`),
  decls.map((d) => `.dark {\n${d}\n}`),
  decls.map((d) => `@media (prefers-color-scheme: dark) {\n  :root {\n${d}\n  }\n}`),
  decls.map((d) => `@layer base {\n  :root {\n${d}\n  }\n  .dark {\n${d}\n  }\n}`),
  fc.constant('@theme inline {\n  --font-sans: ui-sans-serif;\n}'),
  fc.constant('body { color: red; }'),
  fc.constant('/* a } comment */'),
  fc.constantFrom('{', '}', 'a {', '} }'),
);
const stylesheet = fc.array(piece, { maxLength: 7 }).map((parts) => parts.join('\n\n') + '\n');

describe('mergeTheme properties', () => {
  it('returns balanced braces, or the original stylesheet unchanged', () => {
    fc.assert(
      fc.property(stylesheet, theme, (css, t) => {
        const result = mergeTheme(css, t);
        if (result.keptOriginal) expect(result.stylesheet).toBe(css);
        else expect(bracesBalanced(result.stylesheet)).toBe(true);
        expect(result.keptOriginal).toBe(!bracesBalanced(css));
      }),
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(stylesheet, theme, (css, t) => {
        const once = mergeTheme(css, t).stylesheet;
        expect(mergeTheme(once, t).stylesheet).toBe(once);
      }),
    );
  });

  it('leaves every variable it sets present in the result', () => {
    fc.assert(
      fc.property(stylesheet.filter(bracesBalanced), theme, (css, t) => {
        const out = mergeTheme(css, t).stylesheet;
        for (const [name, v] of Object.entries({ ...t.light, ...t.dark })) expect(out).toContain(`--${name}: ${v.trim()}`);
        for (const url of t.fonts) expect(out).toContain(`@import url('${url}');`);
      }),
    );
  });
});
