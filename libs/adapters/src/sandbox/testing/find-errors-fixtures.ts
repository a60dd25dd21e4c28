import { LocalSandboxHost } from '../local-sandbox-host.adapter.js';

/** The starter's App with one type error (line 2, column 9). */
export const APP_WITH_TYPE_ERROR = `export function App() {
  const count: number = 'three';
  return <h1>Welcome to your Kiln app {count}</h1>;
}
`;

/** Counts the sandboxed commands find-errors starts (the cold way: tsc, the build). */
export class CountingHost extends LocalSandboxHost {
  commands = 0;
  override runCommand(...args: Parameters<LocalSandboxHost['runCommand']>): ReturnType<LocalSandboxHost['runCommand']> {
    this.commands += 1;
    return super.runCommand(...args);
  }
}
