import { describe, expect, it } from '@jest/globals';
import { asksForNewApp, hasApp, replaceAppDecision } from './replace-app-rule.js';

describe('asksForNewApp (issue #14: a new app only when asked for in so many words)', () => {
  it.each([
    'Start over with a recipe app',
    'start from scratch: a todo list',
    'Let us start again, a portfolio this time',
    'Make a brand new app for my bakery',
    'I want a new app: a habit tracker',
    'build me a different app please',
    'Replace the app with a landing page for my band',
    'rebuild my whole app as a shop',
    'Scrap this app and make a blog',
    'throw away the app, I want a quiz instead',
    'START OVER',
  ])('asks: %s', (message) => {
    expect(asksForNewApp(message)).toBe(true);
  });

  it.each([
    'save my favourite recipes with a heart button',
    'add a new page for contact',
    'Add a new project card to the portfolio',
    'change the colors to green',
    'make the app darker',
    'fix the error in App.tsx',
    "don't start over, just add a footer",
    'do not replace the app, only rename it',
    'without starting over, add a search box',
    'not a new app, just a new section',
    'add a button that starts over the quiz',
    'rename the app to Chores',
    '',
  ])('does not ask: %s', (message) => {
    expect(asksForNewApp(message)).toBe(false);
  });
});

describe('hasApp', () => {
  it('is true once a turn was kept with a version', () => {
    expect(hasApp([])).toBe(false);
    expect(hasApp([{ status: 'reverted', commitHash: null }, { status: 'failed', commitHash: null }])).toBe(false);
    // Kept without a version: nothing changed (or saving failed) — still the starter as far as we know.
    expect(hasApp([{ status: 'kept', commitHash: null }])).toBe(false);
    expect(hasApp([{ status: 'failed', commitHash: null }, { status: 'kept', commitHash: 'abc1234' }])).toBe(true);
  });
});

describe('replaceAppDecision', () => {
  it('runs edits and first builds, confirms an asked-for new app, declines the rest', () => {
    expect(replaceAppDecision({ kind: 'edit' }, true, 'save my recipes')).toBe('run');
    expect(replaceAppDecision({ kind: 'build' }, false, 'a recipe app')).toBe('run');
    expect(replaceAppDecision({ kind: 'build' }, true, 'save my favourite recipes with a heart button')).toBe('decline');
    expect(replaceAppDecision({ kind: 'build' }, true, 'start over with a recipe app')).toBe('confirm');
  });
});
