import type { IsolationStatus } from '@kiln/adapters';
import type { NodeEnv } from '../config.js';

/**
 * Whether project code runs isolated here (main.ts checks at start: production refuses to start
 * without it; development starts with a warning, and the builder shows it on every project).
 */
export type SandboxIsolation = { readonly isolated: true } | { readonly isolated: false; readonly reason: string };

export type IsolationDecision =
  | { readonly kind: 'ok'; readonly isolation: SandboxIsolation; readonly message: string }
  | { readonly kind: 'warn'; readonly isolation: SandboxIsolation; readonly message: string }
  | { readonly kind: 'refuse'; readonly message: string };

/** What start-up does with the sandbox host's isolation check: never a silent fallback. */
export function isolationAtStart(status: IsolationStatus, nodeEnv: NodeEnv): IsolationDecision {
  if (status.isolated) {
    return { kind: 'ok', isolation: { isolated: true }, message: `Sandboxes isolated (bubblewrap, unprivileged user namespace); limits: ${status.limits ?? 'none'}` };
  }
  if (nodeEnv === 'production') {
    return {
      kind: 'refuse',
      message: `Kiln will not start: project sandboxes cannot be isolated on this machine (${status.reason}). Install bubblewrap and allow unprivileged user namespaces, or run with NODE_ENV=development to try Kiln without isolation.`,
    };
  }
  const line = '!'.repeat(100);
  return {
    kind: 'warn',
    isolation: { isolated: false, reason: `Project code is not isolated on this server: ${status.reason}. Development only — never let others use it.` },
    message: `\n${line}\n  PROJECT CODE IS NOT ISOLATED: ${status.reason}.\n  Any project's code (and the AI's) runs with Kiln's own rights on this machine. Development only.\n${line}`,
  };
}
