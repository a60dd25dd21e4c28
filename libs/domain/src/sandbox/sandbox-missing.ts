/**
 * The host's rejection for a project that has no sandbox yet (before `ensure`, after `cleanup`).
 * Hosts throw it with this message; `isSandboxMissing` also knows the message, so a rejection
 * from another copy of the domain package is still recognised.
 */
export class SandboxMissing extends Error {
  constructor(readonly projectId: string) {
    super(`No sandbox for project ${projectId}`);
    this.name = 'SandboxMissing';
  }
}

export function isSandboxMissing(error: unknown): boolean {
  return error instanceof SandboxMissing || (error instanceof Error && /^No sandbox for project\b/.test(error.message));
}
