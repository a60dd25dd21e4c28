// SPEC §4 sandbox initialisation, shared by the creation screen (all three stages, with progress)
// and the builder (stage 1 on every visit: it also starts the dev server and gives a fresh
// preview token). SPEC §8 fallbacks included.
import { EMPTY_ERROR_SCAN, type ErrorScan, errorScanFrom, unavailableErrorScan } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { TYPES } from '../../app/ports';
import { type Logger, UI_TYPES, type UrlProbe } from '../../app/ui-ports';
import type { FileListEntryDto, FileTreeEntryDto, FindErrorsDto, SandboxApi, SandboxInfoDto } from '../../api/sandbox.api';

/** SPEC §8: the message of a sandbox that failed to start but whose address answers. */
export const WEBSITE_IS_RUNNING = 'Website is running';

export type SetupStage = 1 | 2 | 3;

/** What each stage does, in the words the creation screen shows. */
export const SETUP_STAGES: readonly { readonly stage: SetupStage; readonly label: string }[] = [
  { stage: 1, label: 'Starting your sandbox' },
  { stage: 2, label: 'Reading your project' },
  { stage: 3, label: 'Loading files and checking for errors' },
];

export interface SetupResult {
  readonly info: SandboxInfoDto;
  readonly rootEntries: readonly FileListEntryDto[];
  readonly tree: readonly FileTreeEntryDto[];
  readonly scan: ErrorScan;
}

/**
 * find-errors' reply as the domain's scan; the AI-support folder is left out again on this side.
 * A check the server could not run (`status: 'unavailable'`) stays one, with its reason.
 */
export function scanFromDto(dto: FindErrorsDto): ErrorScan {
  if (dto.status === 'unavailable') return unavailableErrorScan(dto.unavailable_reason ?? '');
  return errorScanFrom(dto.errors.map((e) => ({ ...e })));
}

@injectable()
export class SandboxSetup {
  constructor(
    @inject(TYPES.SandboxApi) private readonly api: SandboxApi,
    @inject(UI_TYPES.UrlProbe) private readonly probe: UrlProbe,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {}

  /**
   * Stage 1: creates the sandbox if missing and starts its dev server. SPEC §8: when that fails,
   * the sandbox's address is probed; if it answers, the sandbox is treated as running with the
   * message 'Website is running'; otherwise the error is rethrown.
   */
  async ensure(projectId: string): Promise<SandboxInfoDto> {
    try {
      return await this.api.ensure(projectId);
    } catch (error) {
      this.logger.warn('Sandbox ensure failed; probing the preview address', error);
      const info = await this.api.info(projectId).catch(() => null);
      if (info !== null && info.url !== '' && (await this.probe.isReachable(info.url))) {
        return { ...info, status: 'running', message: WEBSITE_IS_RUNNING };
      }
      throw error;
    }
  }

  /**
   * The three stages. `onStage` hears each stage as it starts. Stage 1 failures reject; later
   * stages fall back (SPEC §8: a listing answers empty, a failed scan zero counts).
   *
   * The preview's console bridge needs no install step here: the API's preview proxy injects
   * /__kiln/bridge.js into every HTML page (docs/sandbox-api.md § Live preview), so SPEC §4's
   * "ensure the bridge dev dependency" has nothing left to do in the project.
   */
  async run(projectId: string, onStage: (stage: SetupStage) => void = () => undefined): Promise<SetupResult> {
    onStage(1);
    const info = await this.ensure(projectId);
    onStage(2);
    const rootEntries = await this.api.readDirectory(projectId, '.').catch((error: unknown) => {
      this.logger.warn('Reading the project root failed', error);
      return [] as readonly FileListEntryDto[];
    });
    onStage(3);
    const [tree, scan] = await Promise.all([
      this.api.getTree(projectId).catch((error: unknown) => {
        this.logger.warn('Loading the file tree failed', error);
        return [] as readonly FileTreeEntryDto[];
      }),
      this.api
        .findErrors(projectId)
        .then(scanFromDto)
        .catch((error: unknown) => {
          this.logger.warn('The error scan failed', error);
          return EMPTY_ERROR_SCAN;
        }),
    ]);
    return { info, rootEntries, tree, scan };
  }
}
