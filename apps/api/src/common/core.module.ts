import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { CryptoRandom, SystemClock, UuidIds } from '@kiln/adapters';
import type { Clock, ObjectStore } from '@kiln/domain';
import type { AppConfig } from '../config.js';
import { UnconfiguredObjectStore } from './unconfigured-object-store.js';
import { APP_CONFIG, CLOCK, OBJECT_STORE, ID_GENERATOR, PLAN_CATALOG, PROBLEM_LOG, RANDOM_SOURCE } from '../tokens.js';

export interface CoreOptions {
  /** Tests may pass a fixed clock; production reads the system clock. */
  readonly clock?: Clock;
  /** Where file bytes live: main.ts the configured store; without one every call rejects (503). */
  readonly objectStore?: ObjectStore;
}

/**
 * Global providers every context needs: the config, the clock, randomness, ids, the log of
 * recovered failures (ProblemLog) and the plan catalog (standard plans plus the configured upper tiers, validated by loadConfig).
 */
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, options: CoreOptions = {}): DynamicModule {
    const providers = [
      { provide: APP_CONFIG, useValue: config },
      { provide: CLOCK, useValue: options.clock ?? new SystemClock() },
      { provide: RANDOM_SOURCE, useValue: new CryptoRandom() },
      { provide: ID_GENERATOR, useValue: new UuidIds() },
      { provide: OBJECT_STORE, useValue: options.objectStore ?? new UnconfiguredObjectStore() },
      { provide: PLAN_CATALOG, useValue: config.plans },
      { provide: PROBLEM_LOG, useValue: new Logger('Kiln') },
    ];
    return { module: CoreModule, global: true, providers, exports: providers.map((p) => p.provide) };
  }
}
