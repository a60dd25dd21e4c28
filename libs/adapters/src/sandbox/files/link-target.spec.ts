import { describe, expect, it } from '@jest/globals';
import { linkTargetNames } from './link-target.js';

const PROJECT = '/data/sandboxes/p1';

describe('linkTargetNames', () => {
  it.each([
    [['src'], 'App.tsx', ['src', 'App.tsx']],
    [['src'], './App.tsx', ['src', 'App.tsx']],
    [['src', 'a'], '../b//c/', ['src', 'b', 'c']],
    [['src'], '..', []],
    [[], 'src/../index.html', ['index.html']],
    [['deep', 'er'], `${PROJECT}/src/App.tsx`, ['src', 'App.tsx']],
    [['x'], PROJECT, []],
    [['x'], `${PROJECT}/`, []],
  ])('in %j, %j leads to %j', (dir, target, expected) => {
    expect(linkTargetNames(dir, target, PROJECT)).toEqual(expected);
  });

  it.each([
    [[], '..'],
    [['src'], '../..'],
    [['src'], '../../p2/secret'],
    [[], '/etc/passwd'],
    [[], '/data/sandboxes/p10/x'], // a sibling whose name starts the same
    [[], '/data/sandboxes'],
    [['a'], ''],
    [['a', 'b'], 'c/../../../..'],
  ])('in %j, %j leaves the project', (dir, target) => {
    expect(linkTargetNames(dir, target, PROJECT)).toBeNull();
  });
});
