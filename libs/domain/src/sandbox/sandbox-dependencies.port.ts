/** How making node_modules match package.json ended. */
export type DependencyInstallResult =
  /** node_modules now holds package.json's packages (installed now, or taken from the shared cache). */
  | { readonly kind: 'installed' }
  /** node_modules already held them: nothing to do. */
  | { readonly kind: 'up-to-date' }
  /** node_modules is not the host's to manage here (a real folder the project made, no shared cache): nothing done. */
  | { readonly kind: 'not-managed'; readonly message: string }
  /** package.json asks for what cannot be installed, or the install failed: node_modules stays as it was. */
  | { readonly kind: 'failed'; readonly message: string };

export interface InstallDependenciesOptions {
  /** Lines about the install's progress, as it goes (the terminal shows them). */
  readonly onProgress?: (line: string) => void;
}

/**
 * A project's installed packages (docs/sandbox-api.md "Dependencies"): the host installs
 * package.json's dependency set into its shared cache (once for every project asking for the
 * same set) and points the project's node_modules at it, restarting a running dev server so it
 * sees the new packages. The same install find-errors and the dev server run before they start;
 * the terminal's `npm install` uses it directly. Never changes package.json; an install that
 * fails is a result, not a rejection (a missing sandbox rejects).
 */
export interface SandboxDependencies {
  installDependencies(sandboxId: string, options?: InstallDependenciesOptions): Promise<DependencyInstallResult>;
}
