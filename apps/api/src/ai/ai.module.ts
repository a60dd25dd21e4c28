import { type DynamicModule, Module } from '@nestjs/common';
import {
  AcceptTurnPlan,
  type AiAssistant,
  aiRequestRule,
  CancelTurnPlan,
  CheckPublishAllowed,
  type Clock,
  ConsumePromptCredit,
  type CreditLedger,
  type IdGenerator,
  InProcessTurnLock,
  ListTurns,
  OwnedProjects,
  type ProjectRepository,
  type ProjectTurnLock,
  RefundPromptCredit,
  RunTurn,
  type SandboxHost,
  ThrottleAiRequest,
  type TurnDependencies,
  type TurnRepository,
} from '@kiln/domain';
import { InMemoryRateLimiter } from '@kiln/domain/testing';
import type { ModuleImport } from '../app.module.js';
import { CreditsModule } from '../credits/credits.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { ProjectIndexer } from '../vector/project-indexer.js';
import { VectorModule } from '../vector/vector.module.js';
import {
  AI_ASSISTANT,
  AI_CONTEXT_LIMIT,
  CLOCK,
  CREDIT_LEDGER,
  ID_GENERATOR,
  PROJECT_REPOSITORY,
  SANDBOX_HOST,
  TURN_DEPENDENCIES,
  TURN_LOCK,
  TURN_REPOSITORY,
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
  /** The sandbox module instance of the app (it exports SandboxFeed, where file changes are published). */
  readonly sandbox: ModuleImport;
  /** Where turns are kept (default: TURN_REPOSITORY of the persistence module). */
  readonly turns?: TurnRepository;
}

/** The AI routes (docs/ai-api.md): a project's turns and the /api/ai helpers. */
@Module({})
export class AiModule {
  static forRoot(options: AiModuleOptions): DynamicModule {
    return {
      module: AiModule,
      imports: [CreditsModule, ProjectsModule, VectorModule, options.sandbox],
      controllers: [TurnsController, AiController],
      providers: [
        { provide: AI_ASSISTANT, useValue: options.assistant },
        { provide: AI_CONTEXT_LIMIT, useValue: options.contextLimitChars },
        // Turns come from the persistence module (PostgreSQL or memory) unless a test passes its own.
        ...(options.turns ? [{ provide: TURN_REPOSITORY, useValue: options.turns }] : []),
        { provide: TURN_LOCK, useValue: new InProcessTurnLock() },
        {
          provide: ThrottleAiRequest,
          // Buckets per process, like the auth rate limits (single-process deployment, docs/decisions.md).
          useFactory: (clock: Clock) => new ThrottleAiRequest(new InMemoryRateLimiter(clock), aiRequestRule(options.rateLimitPerMinute)),
          inject: [CLOCK],
        },
        AiRateLimitGuard,
        {
          provide: OwnedProjects,
          useFactory: (projects: ProjectRepository, check: CheckPublishAllowed, clock: Clock) => new OwnedProjects(projects, check, clock),
          inject: [PROJECT_REPOSITORY, CheckPublishAllowed, CLOCK],
        },
        {
          provide: TURN_DEPENDENCIES,
          useFactory: (
            turns: TurnRepository,
            projects: OwnedProjects,
            sandbox: SandboxHost,
            assistant: AiAssistant,
            consumeCredit: ConsumePromptCredit,
            refundCredit: RefundPromptCredit,
            ledger: CreditLedger,
            lock: ProjectTurnLock,
            clock: Clock,
            ids: IdGenerator,
            indexer: ProjectIndexer,
          ): TurnDependencies => ({
            turns,
            projects,
            sandbox,
            assistant,
            consumeCredit,
            refundCredit,
            ledger,
            lock,
            clock,
            ids,
            settings: { repairRounds: options.repairRounds, contextLimitChars: options.contextLimitChars, selectContext: vectorContextSelector(indexer) },
          }),
          inject: [
            TURN_REPOSITORY,
            OwnedProjects,
            SANDBOX_HOST,
            AI_ASSISTANT,
            ConsumePromptCredit,
            RefundPromptCredit,
            CREDIT_LEDGER,
            TURN_LOCK,
            CLOCK,
            ID_GENERATOR,
            ProjectIndexer,
          ],
        },
        { provide: RunTurn, useFactory: (deps: TurnDependencies) => new RunTurn(deps), inject: [TURN_DEPENDENCIES] },
        { provide: AcceptTurnPlan, useFactory: (deps: TurnDependencies) => new AcceptTurnPlan(deps), inject: [TURN_DEPENDENCIES] },
        { provide: CancelTurnPlan, useFactory: (deps: TurnDependencies) => new CancelTurnPlan(deps), inject: [TURN_DEPENDENCIES] },
        { provide: ListTurns, useFactory: (deps: TurnDependencies) => new ListTurns(deps), inject: [TURN_DEPENDENCIES] },
      ],
      exports: [AI_ASSISTANT],
    };
  }
}
