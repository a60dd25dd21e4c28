/**
 * Something a person did that other contexts may follow (marketing keeps its contact current).
 * `purchased` is an add-on credit purchase; a subscription bought or changed is `plan_changed`.
 */
export type AccountActivityKind = 'signed_up' | 'plan_changed' | 'purchased' | 'prompt_used';

export interface AccountActivity {
  readonly userId: string;
  readonly kind: AccountActivityKind;
  readonly at: Date;
}

/**
 * Told by the use cases where these things happen (EnsureProfileOnSignIn, ChangePlan,
 * GrantAddOnCredits, ConsumePromptCredit), after their effect. It lives in shared/ so those
 * rooms need not know who listens. An implementation must never throw: the person's action
 * has already happened and must not fail because a follower did.
 */
export interface AccountActivityListener {
  record(activity: AccountActivity): Promise<void>;
}

/** Nobody listens (apps and tests without marketing). */
export const NO_ACCOUNT_ACTIVITY_LISTENER: AccountActivityListener = { record: async () => undefined };
