// docs/architecture.md § Wiring the API: one way to wire dependencies in the API.
//  1. A domain use case is provided under its own class with useCase() — never a hand-written
//     useFactory (which drifts from the constructor and hides what it needs).
//  2. Every constructor parameter of a class Nest builds (controllers, providers, modules,
//     filters) names its token with @Inject(...): nothing is injected by the reflected type.
// Both rules are read from the syntax tree of the API's production sources, and each is proved
// on a probe that breaks it.
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const API_SOURCES = path.join(repoRoot, 'apps/api/src');
const NEST_BUILT = new Set(['Injectable', 'Controller', 'Module', 'Catch']);

function productionSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productionSources(full);
    return entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

const decoratorName = (decorator: ts.Decorator): string | null => {
  const call = decorator.expression;
  if (ts.isCallExpression(call) && ts.isIdentifier(call.expression)) return call.expression.text;
  return ts.isIdentifier(call) ? call.text : null;
};

/** The names a file imports from '@kiln/domain' (values and types). */
function domainImports(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || statement.moduleSpecifier.text !== '@kiln/domain') continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.add(element.name.text);
  }
  return names;
}

/** Every break of the two rules in one source text, as 'file:line what'. */
export function wiringProblems(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const fromDomain = domainImports(file);
  const problems: string[] = [];
  const where = (node: ts.Node) => `${path.relative(repoRoot, fileName)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isClassDeclaration(node) && (ts.getDecorators(node) ?? []).some((d) => NEST_BUILT.has(decoratorName(d) ?? ''))) {
      const constructor = node.members.find(ts.isConstructorDeclaration);
      for (const parameter of constructor?.parameters ?? []) {
        const injected = (ts.getDecorators(parameter) ?? []).some((d) => decoratorName(d) === 'Inject');
        if (!injected) problems.push(`${where(parameter)} ${node.name?.text ?? 'class'}: constructor parameter ${parameter.name.getText(file)} has no @Inject(token)`);
      }
    }
    if (ts.isObjectLiteralExpression(node)) {
      const property = (name: string) => node.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText(file) === name);
      const provide = property('provide');
      if (provide && property('useFactory') && ts.isIdentifier(provide.initializer) && fromDomain.has(provide.initializer.text)) {
        problems.push(`${where(node)} ${provide.initializer.text}: a domain class is provided with useCase(), not a hand-written useFactory`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return problems;
}

describe('wiring the API', () => {
  const files = productionSources(API_SOURCES);

  it('reads the API sources (so an empty walk cannot pass)', () => {
    expect(files.length).toBeGreaterThan(60);
    expect(files).toContain(path.join(API_SOURCES, 'sandbox/sandbox.module.ts'));
  });

  it('has no break of either rule', () => {
    expect(files.flatMap((file) => wiringProblems(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('catches a use case provided by a hand-written factory', () => {
    const probe = `import { Module } from '@nestjs/common';
import { RefundPromptCredit } from '@kiln/domain';
@Module({ providers: [{ provide: RefundPromptCredit, useFactory: (l, c) => new RefundPromptCredit(l, c), inject: [A, B] }] })
export class M {}`;
    expect(wiringProblems(path.join(API_SOURCES, 'probe.module.ts'), probe)).toEqual([
      'apps/api/src/probe.module.ts:3 RefundPromptCredit: a domain class is provided with useCase(), not a hand-written useFactory',
    ]);
    // An adapter built from configuration under its own token is not a use case.
    expect(wiringProblems(path.join(API_SOURCES, 'probe.module.ts'), probe.replace("from '@kiln/domain'", "from '@kiln/adapters'"))).toEqual([]);
  });

  it('catches a constructor parameter injected by its reflected type', () => {
    const probe = `import { Controller, Inject } from '@nestjs/common';
@Controller('x')
export class X {
  constructor(
    @Inject(A) private readonly a: A,
    private readonly b: B,
  ) {}
}
class NotNest { constructor(private readonly c: C) {} }`;
    expect(wiringProblems(path.join(API_SOURCES, 'probe.controller.ts'), probe)).toEqual([
      'apps/api/src/probe.controller.ts:6 X: constructor parameter b has no @Inject(token)',
    ]);
  });
});
