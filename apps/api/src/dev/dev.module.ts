import { Module } from '@nestjs/common';
import { MarketingDevController } from './marketing.controller.js';
import { OutboxController } from './outbox.controller.js';

/** Development helpers. app.module.ts imports this only when NODE_ENV is not production. */
@Module({ controllers: [OutboxController, MarketingDevController] })
export class DevModule {}
