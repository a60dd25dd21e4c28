import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_ATTACHMENTS_PER_MESSAGE, MAX_TURN_MESSAGE_LENGTH, type Turn, type TurnPlan } from '@kiln/domain';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { iso } from '../../common/wire.js';
import { IDEMPOTENCY_KEY_PATTERN, MAX_IDEMPOTENCY_KEY_LENGTH } from '../../credits/idempotency-key.js';

export { MAX_TURN_MESSAGE_LENGTH };

export class StartTurnDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_TURN_MESSAGE_LENGTH, example: 'Build a todo list app called Chores' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  @MaxLength(MAX_TURN_MESSAGE_LENGTH)
  message!: string;

  @ApiProperty({
    minLength: 1,
    maxLength: MAX_IDEMPOTENCY_KEY_LENGTH,
    description: 'One per message: a retried request with the same key replays the turn instead of running (and charging) it again',
  })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(MAX_IDEMPOTENCY_KEY_LENGTH)
  @Matches(IDEMPOTENCY_KEY_PATTERN, { message: 'must be printable ASCII characters without leading or trailing spaces' })
  idempotency_key!: string;

  @ApiPropertyOptional({ default: false, description: 'Run a plan of several tasks without waiting for accept' })
  @IsOptional()
  @IsBoolean()
  auto_run?: boolean;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_ATTACHMENTS_PER_MESSAGE,
    description: 'Files attached to the message (POST …/attachments ids of this project); each becomes a line of the message and a file in public/attachments/',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ATTACHMENTS_PER_MESSAGE)
  @IsUUID('all', { each: true, message: 'each must be an attachment id' })
  attachment_ids?: string[];
}

export class PlannedModuleView {
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiProperty() description!: string;
}

export class PlannedTaskView {
  @ApiProperty() id!: string;
  @ApiProperty() module_id!: string;
  @ApiProperty() title!: string;
  @ApiProperty() description!: string;
}

export class PlanView {
  @ApiProperty({ enum: ['build', 'edit'] }) kind!: 'build' | 'edit';
  @ApiProperty({ type: [PlannedModuleView] }) modules!: PlannedModuleView[];
  @ApiProperty({ type: [PlannedTaskView] }) tasks!: PlannedTaskView[];
  @ApiProperty({ description: 'Credits the plan costs: one per task (at least 1)' }) cost!: number;
  @ApiProperty({ description: 'Running it makes a new app that replaces the current one (its pages, theme and text): it always waits for approval' })
  replaces_app!: boolean;

  static from(plan: TurnPlan): PlanView {
    return {
      kind: plan.kind,
      modules: plan.modules.map((m) => ({ id: m.id, title: m.title, description: m.description })),
      tasks: plan.tasks.map((t) => ({ id: t.id, module_id: t.moduleId, title: t.title, description: t.description })),
      cost: Math.max(1, plan.tasks.length),
      replaces_app: plan.replacesApp === true,
    };
  }
}

/** One message of a project's chat history. */
export class TurnView {
  @ApiProperty() id!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ enum: ['queued', 'running', 'awaiting_approval', 'kept', 'reverted', 'failed', 'cancelled'] }) status!: string;
  @ApiProperty({ description: "The assistant's words" }) reply!: string;
  @ApiProperty({ type: PlanView, nullable: true }) plan!: PlanView | null;
  @ApiProperty({ type: String, nullable: true, description: "How it ended (done's message, or the failure); null while it runs" }) outcome!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, nullable: true }) commit_hash!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "Why a failed turn failed (e.g. 'AI.DECLINED': the assistant said it cannot do this; nothing was charged)" })
  failure_code!: string | null;

  static from(turn: Turn): TurnView {
    return {
      id: turn.id,
      message: turn.message,
      status: turn.status,
      reply: turn.reply,
      plan: turn.plan ? PlanView.from(turn.plan) : null,
      outcome: turn.outcome,
      created_at: iso(turn.createdAt),
      commit_hash: turn.commitHash,
      failure_code: turn.failureCode,
    };
  }
}
