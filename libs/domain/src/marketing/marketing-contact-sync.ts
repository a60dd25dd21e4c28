import type { CreditLedger } from '../credits/credit-ledger.port.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { ProjectRepository } from '../projects/project-repository.port.js';
import type { AccountActivity, AccountActivityListener } from '../shared/account-activity.port.js';
import { type ProblemLog, problemText } from '../shared/problem-log.port.js';
import { contactAttributesFromAccount, promptCounts } from './contact-from-account.js';
import type { MarketingOutbox } from './marketing-outbox.port.js';
import { promptUsageAttributes, validatePromptUsageUpdate } from './prompt-usage-update.js';

/**
 * Keeps a person's marketing contact current from server events (sign-up, plan change,
 * purchase, prompt use): reads the account as it now stands and queues the whole attribute
 * set in the MarketingOutbox, which delivers it later. Never throws: a failure here is logged
 * and the person's action stands.
 */
export class MarketingContactSync implements AccountActivityListener {
  constructor(
    private readonly profiles: Pick<ProfileRepository, 'findById'>,
    private readonly ledger: Pick<CreditLedger, 'summary'>,
    private readonly projects: Pick<ProjectRepository, 'listByCreator'>,
    private readonly outbox: Pick<MarketingOutbox, 'enqueue'>,
    private readonly problems: ProblemLog,
  ) {}

  async record(activity: AccountActivity): Promise<void> {
    try {
      await this.queue(activity);
    } catch (error) {
      this.problems.warn(`Marketing contact not queued after ${activity.kind}: ${problemText(error)}`);
    }
  }

  private async queue(activity: AccountActivity): Promise<void> {
    const profile = await this.profiles.findById(activity.userId);
    if (!profile) return;
    const credits = await this.ledger.summary(profile.id);
    const projects = await this.projects.listByCreator(profile.id);
    let attributes = contactAttributesFromAccount({ profile, credits, projectCount: projects.filter((p) => p.status !== 'deleted').length });
    if (activity.kind === 'prompt_used') {
      // SPEC §5: a prompt usage update needs a non-empty email and non-negative numbers.
      const counts = promptCounts(credits);
      const usage = validatePromptUsageUpdate({ email: profile.email, totalPromptsUsed: counts.used, promptsBalance: counts.planBalance, lastPromptUsedAt: activity.at });
      if (!usage.ok) {
        this.problems.warn(`Marketing prompt usage not sent: ${usage.error.message}`);
        return;
      }
      attributes = { ...attributes, ...promptUsageAttributes(usage.value) };
    }
    if (profile.email.trim() === '') return;
    await this.outbox.enqueue({ kind: 'contact', email: profile.email.trim(), attributes }, activity.at);
  }
}
