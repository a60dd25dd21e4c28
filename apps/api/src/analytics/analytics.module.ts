import { type DynamicModule, Module } from '@nestjs/common';
import { Operators, ReadDailyActivity, RecordTrackingEvents } from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import type { AppConfig } from '../config.js';
import { ANALYTICS_EVENT_STORE, CLOCK, RATE_LIMITER } from '../tokens.js';
import { AnalyticsController } from './analytics.controller.js';

/** Who may read the daily activity (OPERATOR_EMAILS). */
const OPERATORS = Symbol('Operators');

/** First-party analytics (issue #17): events into ANALYTICS_EVENT_STORE, the operators' chart out of it. */
@Module({})
export class AnalyticsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AnalyticsModule,
      controllers: [AnalyticsController],
      providers: [
        { provide: OPERATORS, useValue: new Operators(config.analytics.operatorEmails) },
        useCase(RecordTrackingEvents, [ANALYTICS_EVENT_STORE, RATE_LIMITER, CLOCK]),
        useCase(ReadDailyActivity, [ANALYTICS_EVENT_STORE, OPERATORS, CLOCK]),
      ],
    };
  }
}
