import { describe, expect, it } from '@jest/globals';
import { isValidPackageName, isValidVersionRange } from '../../sandbox/package-spec.js';
import {
  addDependencyToPackageJson,
  applyOperations,
  fullFileRequested,
  MAX_FILE_CONTENT_LENGTH,
  MAX_OPERATIONS_PER_BATCH,
  parseFileOperation,
  validateOperation,
  type FileOperation,
} from './file-operation.js';

const project = () =>
  new Map<string, string>([
    ['index.html', '<title>Kiln app</title>'],
    ['src/App.tsx', 'export function App() {\n  return <h1>Hello</h1>;\n}\n'],
    ['src/main.tsx', "import { App } from '../App';\n"],
    ['package.json', '{\n  "name": "x",\n  "dependencies": {\n    "react": "19.3.1"\n  }\n}\n'],
  ]);

describe('parseFileOperation', () => {
  it('reads each tool call as its operation', () => {
    expect(parseFileOperation('write_file', { path: 'a.ts', content: 'x' })).toEqual({ ok: true, value: { type: 'write_file', path: 'a.ts', content: 'x' } });
    expect(parseFileOperation('edit_file', { path: 'a.ts', search: 'x', replace: 'y' }).ok).toBe(true);
    expect(parseFileOperation('delete_file', { path: 'a.ts' }).ok).toBe(true);
    expect(parseFileOperation('rename_file', { from: 'a.ts', to: 'b.ts' }).ok).toBe(true);
    expect(parseFileOperation('add_dependency', { name: 'zod', version: '^4.0.0', dev: true })).toEqual({
      ok: true,
      value: { type: 'add_dependency', name: 'zod', version: '^4.0.0', dev: true },
    });
    expect(parseFileOperation('add_dependency', { name: 'zod' })).toEqual({ ok: true, value: { type: 'add_dependency', name: 'zod', version: 'latest' } });
    expect(parseFileOperation('run_command', { command: 'npm test' }).ok).toBe(true);
  });

  it('refuses unknown tools and malformed inputs', () => {
    const unknown = parseFileOperation('format_disk', {});
    expect(!unknown.ok && unknown.error.reason).toBe('unknown-type');
    const notObject = parseFileOperation('write_file', 'a.ts');
    expect(!notObject.ok && notObject.error.reason).toBe('malformed');
    const noContent = parseFileOperation('write_file', { path: 'a.ts', content: 3 });
    expect(!noContent.ok && noContent.error.message).toMatch(/"content"/);
    const badDev = parseFileOperation('add_dependency', { name: 'x', dev: 'yes' });
    expect(badDev.ok).toBe(false);
  });
});

describe('validateOperation', () => {
  const refusal = (op: FileOperation) => {
    const result = validateOperation(op);
    return result.ok ? null : result.error.reason;
  };

  it('normalises paths', () => {
    expect(validateOperation({ type: 'write_file', path: './src/../src/a.ts', content: '' })).toEqual({
      ok: true,
      value: { type: 'write_file', path: 'src/a.ts', content: '' },
    });
  });

  it.each([
    ['../outside.ts', 'path-outside'],
    ['/etc/passwd', 'path-outside'],
    ['src/%2e%2e/x', 'path-outside'],
    ['.', 'path-is-root'],
    ['node_modules/react/index.js', 'protected-path'],
    ['packages/a/node_modules/x.js', 'protected-path'],
    ['.git/config', 'protected-path'],
    ['src/.kiln/bridge.ts', 'protected-path'],
    ['src/./.kiln/x', 'protected-path'],
  ])('refuses writing %s (%s)', (path, reason) => {
    expect(refusal({ type: 'write_file', path, content: 'x' })).toBe(reason);
    expect(refusal({ type: 'delete_file', path })).toBe(reason);
  });

  it('accepts look-alikes of protected folders', () => {
    expect(refusal({ type: 'write_file', path: 'src/kiln/x.ts', content: '' })).toBeNull();
    expect(refusal({ type: 'write_file', path: 'lib/.kiln/x.ts', content: '' })).toBeNull();
    expect(refusal({ type: 'write_file', path: '.gitignore', content: '' })).toBeNull();
  });

  it('limits sizes and refuses empty searches', () => {
    expect(refusal({ type: 'write_file', path: 'a', content: 'x'.repeat(MAX_FILE_CONTENT_LENGTH + 1) })).toBe('too-large');
    expect(refusal({ type: 'write_file', path: 'a', content: 'x'.repeat(MAX_FILE_CONTENT_LENGTH) })).toBeNull();
    expect(refusal({ type: 'edit_file', path: 'a', search: '', replace: 'x' })).toBe('empty-search');
    expect(refusal({ type: 'rename_file', from: 'a', to: './a' })).toBe('same-path');
    expect(refusal({ type: 'rename_file', from: 'a', to: 'node_modules/a' })).toBe('protected-path');
  });

  it('checks commands', () => {
    expect(refusal({ type: 'run_command', command: '   ' })).toBe('empty-command');
    expect(refusal({ type: 'run_command', command: 'npm test\nrm -rf /' })).toBe('command-control-characters');
    expect(refusal({ type: 'run_command', command: 'x'.repeat(2001) })).toBe('command-too-long');
    expect(validateOperation({ type: 'run_command', command: '  npm run build ' })).toEqual({ ok: true, value: { type: 'run_command', command: 'npm run build' } });
  });

  it('checks dependencies', () => {
    expect(refusal({ type: 'add_dependency', name: 'React', version: '1' })).toBe('invalid-package-name');
    expect(refusal({ type: 'add_dependency', name: 'lucide-react', version: 'git+https://evil/x.git' })).toBe('invalid-version');
    expect(refusal({ type: 'add_dependency', name: 'lucide-react', version: '^0.500.0' })).toBeNull();
  });
});

describe('package names and version ranges', () => {
  it.each(['react', '@radix-ui/react-dialog', 'lodash.debounce', 'a', 'left-pad', '@types/node', 'zod'])('accepts the name %s', (name) => {
    expect(isValidPackageName(name)).toBe(true);
  });
  it.each(['', 'React', '.hidden', '_private', '@scope', '@/x', 'a b', '../x', 'x/y', 'http://x', 'a'.repeat(215)])('refuses the name %j', (name) => {
    expect(isValidPackageName(name)).toBe(false);
  });
  it.each(['1.2.3', '^1.2.3', '~1.2', '1.x', '*', 'latest', 'next', '>=1.2.3 <2.0.0', '>= 1.2.3', '1.2.3 - 2.3.4', '^1 || ^2', '2.0.0-beta.1', 'v1.0.0', '=1.0.0', 'x'])(
    'accepts the range %s',
    (range) => {
      expect(isValidVersionRange(range)).toBe(true);
    },
  );
  it.each(['', ' ', 'file:../x', 'git+ssh://git@github.com/a/b', 'https://x.test/a.tgz', 'npm:react@18', 'github:a/b', '^1.2.3; rm -rf /', '1.2.3.4', '01.2.3', '||', '^1 ||', 'a/b'])(
    'refuses the range %j',
    (range) => {
      expect(isValidVersionRange(range)).toBe(false);
    },
  );
});

describe('applyOperations', () => {
  it('applies a batch in order and reports changes, dependencies and commands', () => {
    const files = project();
    const result = applyOperations(files, [
      { type: 'write_file', path: 'src/index.css', content: 'body{}' },
      { type: 'edit_file', path: 'src/App.tsx', search: '<h1>Hello</h1>', replace: '<h1>Hi</h1>' },
      { type: 'rename_file', from: 'src/App.tsx', to: 'src/Root.tsx' },
      { type: 'delete_file', path: 'index.html' },
      { type: 'add_dependency', name: 'lucide-react', version: '^0.500.0' },
      { type: 'add_dependency', name: 'vitest', version: '^3.0.0', dev: true },
      { type: 'run_command', command: 'npm install' },
    ]);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.files.get('src/Root.tsx')).toContain('<h1>Hi</h1>');
    expect(result.value.files.has('src/App.tsx')).toBe(false);
    expect(result.value.changes).toEqual([
      { path: 'index.html', change: 'deleted' },
      { path: 'package.json', change: 'modified' },
      { path: 'src/App.tsx', change: 'deleted' },
      { path: 'src/Root.tsx', change: 'created' },
      { path: 'src/index.css', change: 'created' },
    ]);
    expect(JSON.parse(result.value.files.get('package.json') ?? '')).toEqual({
      name: 'x',
      dependencies: { 'lucide-react': '^0.500.0', react: '19.3.1' },
      devDependencies: { vitest: '^3.0.0' },
    });
    expect(result.value.dependencies.map((d) => d.name)).toEqual(['lucide-react', 'vitest']);
    expect(result.value.commands).toEqual(['npm install']);
  });

  it('asks for the whole file when the search text is missing or ambiguous, naming the path', () => {
    const files = project();
    const missing = applyOperations(files, [{ type: 'edit_file', path: 'src/App.tsx', search: '<h2>', replace: 'x' }]);
    expect(missing).toMatchObject({ ok: false, error: { code: 'AI.NEEDS_FULL_FILE', outcome: 'needs_full_file', path: 'src/App.tsx', occurrences: 0, index: 0 } });
    const ambiguous = applyOperations(files, [
      { type: 'write_file', path: 'a.txt', content: 'one one' },
      { type: 'edit_file', path: './a.txt', search: 'one', replace: 'two' },
    ]);
    expect(ambiguous).toMatchObject({ ok: false, error: { code: 'AI.NEEDS_FULL_FILE', path: 'a.txt', occurrences: 2, index: 1 } });
    if (!ambiguous.ok) expect(fullFileRequested(ambiguous.error)).toBe('a.txt');
    expect(files.has('a.txt')).toBe(false);
  });

  it('replaces text literally ($ patterns are not special)', () => {
    const result = applyOperations(new Map([['a.ts', 'price: X']]), [{ type: 'edit_file', path: 'a.ts', search: 'X', replace: "$& $1 $$ $'" }]);
    expect(result.ok && result.value.files.get('a.ts')).toBe("price: $& $1 $$ $'");
  });

  it('fails on missing files, path conflicts and unusable package.json', () => {
    const files = project();
    expect(applyOperations(files, [{ type: 'delete_file', path: 'nope.ts' }])).toMatchObject({ ok: false, error: { code: 'AI.FILE_MISSING', path: 'nope.ts' } });
    expect(applyOperations(files, [{ type: 'edit_file', path: 'nope.ts', search: 'a', replace: 'b' }])).toMatchObject({ ok: false, error: { code: 'AI.FILE_MISSING' } });
    expect(applyOperations(files, [{ type: 'write_file', path: 'src', content: '' }])).toMatchObject({ ok: false, error: { code: 'AI.PATH_CONFLICT', path: 'src' } });
    expect(applyOperations(files, [{ type: 'write_file', path: 'index.html/x', content: '' }])).toMatchObject({ ok: false, error: { code: 'AI.PATH_CONFLICT' } });
    expect(applyOperations(files, [{ type: 'rename_file', from: 'index.html', to: 'src/main.tsx' }])).toMatchObject({ ok: false, error: { code: 'AI.PATH_CONFLICT' } });
    expect(applyOperations(new Map(), [{ type: 'add_dependency', name: 'x', version: '1' }])).toMatchObject({ ok: false, error: { code: 'AI.PACKAGE_JSON_UNUSABLE' } });
    expect(applyOperations(new Map([['package.json', '[1]']]), [{ type: 'add_dependency', name: 'x', version: '1' }])).toMatchObject({ ok: false });
  });

  it('refuses invalid operations before applying any', () => {
    const files = project();
    const result = applyOperations(files, [
      { type: 'write_file', path: 'ok.ts', content: '' },
      { type: 'write_file', path: 'node_modules/x.js', content: '' },
    ]);
    expect(result).toMatchObject({ ok: false, error: { code: 'AI.OPERATION_REFUSED', reason: 'protected-path', index: 1 } });
    const many = Array.from({ length: MAX_OPERATIONS_PER_BATCH + 1 }, (): FileOperation => ({ type: 'run_command', command: 'ls' }));
    expect(applyOperations(files, many)).toMatchObject({ ok: false, error: { reason: 'too-many-operations' } });
  });

  it('moves a dependency between sections', () => {
    const text = JSON.stringify({ dependencies: { a: '1', b: '1' }, devDependencies: { c: '1' } });
    const moved = addDependencyToPackageJson(text, { type: 'add_dependency', name: 'a', version: '2', dev: true });
    expect(moved.ok && JSON.parse(moved.value)).toEqual({ dependencies: { b: '1' }, devDependencies: { a: '2', c: '1' } });
  });
});
