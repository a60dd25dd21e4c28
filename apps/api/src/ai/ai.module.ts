import { type DynamicModule, Inject, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import {
  AttachmentsForTurns,
  DescribeDatabaseForAssistant,
  ApplyMigrations,
  TurnMigrationsOfProject,
  AcceptTurnPlan,
  AskModel,
  EnhancePrompt,
  PreviewPlan,
  SummarizeConversation,
  type AiAssistant,
  aiRequestRule,
  CancelTurnPlan,
  type Clock,
  ConsumePromptCredit,
  type CreditLedger,
  type IdGenerator,
  ListTurns,
  OwnedProjects,
  type ProjectTurnLock,
  type RecoveredFiles,
  RecoverInterruptedTurns,
  RefundPromptCredit,
  RunTurn,
  RunningTurns,
  StopTurn,
  type SandboxHost,
  ThrottleAiRequest,
  type TurnDependencies,
  type TurnRecoveryReport,
  type TurnRepository,
  type TurnUndoJournal,
  type ProjectFilesChanged,
  TemplateCatalog,
} from '@kiln/domain';
import type { ModuleImport } from '../app.module.js';
import { useCase } from '../common/use-case.provider.js';
import { CreditsModule } from '../credits/credits.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { ProjectIndexer } from '../vector/project-indexer.js';
import { TemplateCatalogModule } from '../templates/template-catalog.module.js';
import { VectorModule } from '../vector/vector.module.js';
import {
  AI_ASSISTANT,
  AI_CONTEXT_LIMIT,
  AI_REQUEST_RULE,
  CLOCK,
  CREDIT_LEDGER,
  ID_GENERATOR,
  PROBLEM_LOG,
  RATE_LIMITER,
  SANDBOX_HOST,
  TURN_DEPENDENCIES,
  RUNNING_TURNS,
  TURN_LOCK,
  TURN_REPOSITORY,
  TURN_UNDO_JOURNAL,
  PROJECT_FILES_CHANGED,
} from '../tokens.js';
import { AiRateLimitGuard } from './ai-rate-limit.guard.js';
import { AiController } from './ai.controller.js';
import { TurnsController } from './turns.controller.js';
import { vectorContextSelector } from './vector-context.js';

export interface AiModuleOptions {
  /** The model behind every AI route. */
  readonly assistant: AiAssistant;
  /** Free repair rounds per turn (AI_REPAIR_ROUNDS). */
  readonly repairRounds: number;
  /** Free AI helper requests per user and minute (AI_RATE_LIMIT_PER_MINUTE). */
  readonly rateLimitPerMinute: number;
  /** The most characters sent with each AI request (AI_CONTEXT_CHARS). */
  readonly contextLimitChars: number;
  /** The sandbox module instance of the app (it exports PROJECT_FILES_CHANGED, where file changes go). */
  readonly sandbox: ModuleImport;
  /** Where turns are kept (default: TURN_REPOSITORY of the persistence module). */
  readonly turns?: TurnRepository;
}

/**
 * The AI routes (docs/ai-api.md): a project's turns and the /api/ai helpers. On start (before the
 * app listens) it ends the turns a stopped process left queued or running: their files are put
 * back from their undo journal, their credits refunded, and they are failed (RecoverInterruptedTurns).
 */
@Module({})
export class AiModule implements OnApplicationBootstrap {
  private readonly logger = new Logger('Turns');

  constructor(
    @Inject(RecoverInterruptedTurns) private readonly recoverInterruptedTurns: RecoverInterruptedTurns,
  ) {}

  static forRoot(options: AiModuleOptions): DynamicModule {
    return {
      module: AiModule,
      imports: [CreditsModule, ProjectsModule, VectorModule, TemplateCatalogModule, options.sandbox],
      controllers: [TurnsController, AiController],
      providers: [
        { provide: AI_ASSISTANT, useValue: options.assistant },
        { provide: AI_CONTEXT_LIMIT, useValue: options.contextLimitChars },
        // Turns come from the persistence module (PostgreSQL or memory) unless a test passes its own.
        ...(options.turns ? [{ provide: TURN_REPOSITORY, useValue: options.turns }] : []),
        { provide: AI_REQUEST_RULE, useValue: aiRequestRule(options.rateLimitPerMinute) },
        // The persistence module's buckets (PostgreSQL, or memory in tests), as the auth rate limits'.
        useCase(ThrottleAiRequest, [RATE_LIMITER, AI_REQUEST_RULE]),
        AiRateLimitGuard,
        // A catalog template's id shapes the enhanced prompt around the template.
        useCase(EnhancePrompt, [AI_ASSISTANT, TemplateCatalog]),
        useCase(SummarizeConversation, [AI_ASSISTANT]),
        useCase(AskModel, [AI_ASSISTANT]),
        // Plan previews read the project's files through its vector index (ProjectIndexer.contextFor).
        // …and see the project's database (DatabasesModule is global; without a database nothing is told).
        useCase(PreviewPlan, [OwnedProjects, AI_ASSISTANT, ProjectIndexer, AI_CONTEXT_LIMIT, PROBLEM_LOG, DescribeDatabaseForAssistant]),
        // One registry per API process: every turn runs in the process that started it.
        { provide: RUNNING_TURNS, useValue: new RunningTurns() },
        {
          provide: TURN_DEPENDENCIES,
          useFactory: (
            turns: TurnRepository,
            undoJournal: TurnUndoJournal,
            projects: OwnedProjects,
            sandbox: SandboxHost,
            assistant: AiAssistant,
            consumeCredit: ConsumePromptCredit,
            refundCredit: RefundPromptCredit,
            ledger: CreditLedger,
            lock: ProjectTurnLock,
            running: RunningTurns,
            filesChanged: ProjectFilesChanged,
            clock: Clock,
            ids: IdGenerator,
            indexer: ProjectIndexer,
            database: DescribeDatabaseForAssistant | undefined,
            migrations: ApplyMigrations | undefined,
            attachments: AttachmentsForTurns | undefined,
          ): TurnDependencies => ({
            turns,
            undoJournal,
            projects,
            sandbox,
            assistant,
            consumeCredit,
            refundCredit,
            ledger,
            lock,
            running,
            filesChanged,
            clock,
            ids,
            // A turn that changed the migrations folder of a project with a database applies them (docs/databases.md).
            ...(migrations ? { migrations: new TurnMigrationsOfProject(migrations) } : {}),
            settings: { repairRounds: options.repairRounds, contextLimitChars: options.contextLimitChars, selectContext: vectorContextSelector(indexer) },
            // The project's database, told to the assistant (issue #16); absent without the databases module.
            ...(database ? { database } : {}),
            // Files attached to messages (issue 18; AttachmentsModule is global).
            ...(attachments ? { attachments } : {}),
          }),
          inject: [
            TURN_REPOSITORY,
            TURN_UNDO_JOURNAL,
            OwnedProjects,
            SANDBOX_HOST,
            AI_ASSISTANT,
            ConsumePromptCredit,
            RefundPromptCredit,
            CREDIT_LEDGER,
            TURN_LOCK,
            RUNNING_TURNS,
            PROJECT_FILES_CHANGED,
            CLOCK,
            ID_GENERATOR,
            ProjectIndexer,
            { token: DescribeDatabaseForAssistant, optional: true },
            { token: ApplyMigrations, optional: true },
            { token: AttachmentsForTurns, optional: true },
          ],
        },
        useCase(RunTurn, [TURN_DEPENDENCIES]),
        useCase(AcceptTurnPlan, [TURN_DEPENDENCIES]),
        useCase(CancelTurnPlan, [TURN_DEPENDENCIES]),
        useCase(ListTurns, [TURN_DEPENDENCIES]),
        useCase(StopTurn, [TURN_DEPENDENCIES]),
        useCase(RecoverInterruptedTurns, [TURN_DEPENDENCIES]),
      ],
      exports: [AI_ASSISTANT],
    };
  }

  /**
   * Runs once the database is ready and before the app listens: on start, every queued or running
   * turn belongs to a process that stopped (one API process, docs/decisions.md). A turn that
   * cannot be recovered now stays as it is and is tried again at the next start; the app starts
   * either way.
   */
  async onApplicationBootstrap(): Promise<void> {
    let report: TurnRecoveryReport;
    try {
      const recovered = await this.recoverInterruptedTurns.execute();
      if (!recovered.ok) return;
      report = recovered.value;
    } catch (error) {
      this.logger.error(`Interrupted turns could not be looked for (they are at the next start): ${textOf(error)}`);
      return;
    }
    for (const { turn, files } of report.recovered) {
      this.logger.warn(
        `Turn ${turn.id} of project ${turn.projectId} was interrupted by a restart: ${FILES[files]}, ${turn.creditsRefunded} credit(s) refunded, marked failed`,
      );
    }
    for (const { turnId, projectId, cause } of report.unrecovered) {
      this.logger.error(`Turn ${turnId} of project ${projectId} was interrupted and could not be recovered (tried again at the next start): ${textOf(cause)}`);
    }
  }
}

const FILES: Record<RecoveredFiles, string> = {
  restored: 'its files were put back',
  untouched: 'it had not changed any file',
  sandbox_gone: 'its sandbox no longer exists',
};

function textOf(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
