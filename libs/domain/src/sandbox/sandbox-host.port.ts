import type { SandboxCommands } from './sandbox-commands.port.js';
import type { SandboxDependencies } from './sandbox-dependencies.port.js';
import type { SandboxDevServer } from './sandbox-dev-server.port.js';
import type { SandboxDiagnostics } from './sandbox-diagnostics.port.js';
import type { SandboxFileActions } from './sandbox-file-actions.port.js';
import type { SandboxFiles } from './sandbox-files.port.js';
import type { SandboxLifecycle } from './sandbox-lifecycle.port.js';
import type { SandboxVersions } from './sandbox-versions.port.js';

/**
 * A per-project code sandbox (SPEC §7 Sandbox): one adapter plays every role, so the API binds one
 * token; a consumer that needs fewer roles takes only those (the preview proxy SandboxDevServer,
 * the vector index SandboxFiles, a turn its files, commands, diagnostics and versions).
 *
 * Methods reject on infrastructure failure (host unreachable, file missing) and for an unknown or
 * malformed sandbox id. The SPEC §8 fallbacks — file operations answering false or an empty list,
 * history failures answering empty, a failed scan answering zero counts marked unavailable — are
 * the callers' policy. Saving and restoring a version are the exception: their failures are
 * ordinary results.
 */
export interface SandboxHost extends SandboxLifecycle, SandboxFiles, SandboxFileActions, SandboxCommands, SandboxVersions, SandboxDiagnostics, SandboxDevServer, SandboxDependencies {}
