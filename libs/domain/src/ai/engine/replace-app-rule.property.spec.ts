import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { asksForNewApp, replaceAppDecision } from './replace-app-rule.js';

// Words of ordinary edit requests (none of them, in any order, says "a new app").
const EDIT_WORDS = ['add', 'a', 'the', 'my', 'page', 'heart', 'button', 'save', 'favourite', 'recipes', 'with', 'to', 'change', 'colour', 'green', 'footer', 'list', 'app', 'rename', 'make', 'it', 'darker', 'section', 'form', 'contact', 'and', 'please', 'fix', 'error'];
const editMessage = fc.array(fc.constantFrom(...EDIT_WORDS), { minLength: 1, maxLength: 12 }).map((words) => words.join(' '));
const NEW_APP = ['start over', 'from scratch', 'a new app', 'replace the app', 'rebuild my whole app', 'a brand new app'];
const newAppPhrase = fc.constantFrom(...NEW_APP);
const casing = fc.constantFrom((s: string) => s, (s: string) => s.toUpperCase(), (s: string) => s.replace(/^./, (c) => c.toUpperCase()));

describe('replace-app rule properties', () => {
  it('an edit request made of ordinary edit words never asks for a new app, so a build plan on an app is declined', () => {
    fc.assert(
      fc.property(editMessage, casing, (message, shape) => {
        expect(asksForNewApp(shape(message))).toBe(false);
        expect(replaceAppDecision({ kind: 'build' }, true, shape(message))).toBe('decline');
        expect(replaceAppDecision({ kind: 'edit' }, true, shape(message))).toBe('run');
      }),
    );
  });

  it('saying "start over" (or another new-app phrase) anywhere in a request asks for a new app, in any case', () => {
    fc.assert(
      fc.property(editMessage, newAppPhrase, editMessage, casing, (before, phrase, after, shape) => {
        const message = shape(`${before}. ${phrase}, ${after}`);
        expect(asksForNewApp(message)).toBe(true);
        expect(replaceAppDecision({ kind: 'build' }, true, message)).toBe('confirm');
      }),
    );
  });

  it('a negated phrase ("don\'t start over") does not ask', () => {
    fc.assert(
      fc.property(fc.constantFrom("don't", 'do not', 'never', 'without'), newAppPhrase, editMessage, (negation, phrase, after) => {
        expect(asksForNewApp(`${negation} ${phrase}, just ${after}`)).toBe(false);
      }),
    );
  });

  it('the project without an app runs any plan', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('build' as const, 'edit' as const), (message, kind) => {
        expect(replaceAppDecision({ kind }, false, message)).toBe('run');
      }),
    );
  });
});
