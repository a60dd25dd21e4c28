// What attacks.mjs reports, attack by attack (the shapes it writes as JSON). Any attack may
// instead report `{ crashed }` (it threw or ran past its time).

/** Where project code runs: a run-command, the dev server's config, find-errors' build, a release build (publish). */
export type AttackSource = 'run-command' | 'dev-server' | 'build' | 'release';

/** The host files the attacker tries to read. */
export type ReadName = 'dataDirKey' | 'otherProject' | 'shadow' | 'checkout' | 'hostTmp';

export interface Crashed {
  readonly crashed?: string;
}

export interface ReadResult extends Crashed {
  readonly ok: boolean;
  readonly sha256?: string;
  readonly error?: string;
}

export interface ListResult {
  readonly ok: boolean;
  readonly names?: readonly string[];
  readonly error?: string;
}

export interface ConnectResult extends Crashed {
  readonly connected: boolean;
  readonly error?: string;
  /** HTTP only */
  readonly status?: number;
  readonly canarySeen?: boolean;
}

export interface WriteResult {
  readonly ok: boolean;
  readonly error?: string;
}

export interface CommandOutcome {
  readonly code: number | null;
  readonly error: string | null;
  readonly stdout?: string;
  readonly stderr?: string;
}

export interface AttackResults {
  /** Set by the test when the attacker never wrote its done file: why, as far as known. */
  readonly unfinished?: string;
  readonly capabilities?: Crashed & { readonly uid: string | null; readonly capEff: string | null; readonly capBnd: string | null };
  readonly 'read-data-dir'?: Crashed & { readonly key: ReadResult; readonly listing: ListResult };
  readonly 'read-other-project'?: Crashed & { readonly file: ReadResult; readonly listing: ListResult };
  readonly 'read-shadow'?: ReadResult;
  readonly 'read-checkout'?: ReadResult;
  readonly 'read-host-tmp'?: ReadResult;
  readonly 'connect-postgres-tcp'?: ConnectResult;
  readonly 'connect-postgres-socket'?: ConnectResult;
  readonly 'connect-other-dev-server'?: ConnectResult;
  readonly 'write-outside'?: Crashed & Readonly<Record<string, WriteResult>>;
  readonly processes?: Crashed & { readonly requested?: number; readonly started: number; readonly firstError?: string | null };
  readonly disk?: Crashed & {
    readonly target: number;
    readonly written?: number;
    readonly error?: string | null;
    readonly bytesInFiles: number;
    readonly signal?: string | null;
  };
  readonly daemon?: Crashed & { readonly started: boolean; readonly beating: boolean };
  readonly remount?: Crashed & { readonly mounts: readonly (CommandOutcome & { readonly args: string })[]; readonly write: WriteResult };
  readonly unmask?: Crashed & {
    readonly nested: CommandOutcome;
    readonly umounts: readonly (CommandOutcome & { readonly point: string })[];
    readonly readsAfter: Readonly<Record<ReadName, ReadResult>>;
    readonly tamper: WriteResult;
  };
}
