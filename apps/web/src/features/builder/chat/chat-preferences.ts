// The chat's stored preference (auto-run), in local storage beside the builder's layout
// preferences. Its own key: BuilderPreferencesVm rewrites the layout key whole on every change.
import { inject, injectable } from 'inversify';
import { CHAT_PREFERENCES_KEY, type ChatPreferences, type ChatPreferencesStore, type KeyValueStorage, TYPES } from '../../../app/ports';

/** Plans of several tasks ask first (their cost is shown) until the person turns auto-run on. */
export const DEFAULT_CHAT_PREFERENCES: ChatPreferences = Object.freeze({ autoRun: false });

export function parseChatPreferences(raw: string | null): ChatPreferences {
  try {
    const value: unknown = raw === null ? null : JSON.parse(raw);
    if (typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)['autoRun'] === 'boolean') {
      return { autoRun: (value as { autoRun: boolean }).autoRun };
    }
  } catch {
    // unreadable: the defaults
  }
  return DEFAULT_CHAT_PREFERENCES;
}

@injectable()
export class StoredChatPreferences implements ChatPreferencesStore {
  constructor(@inject(TYPES.Storage) private readonly storage: KeyValueStorage) {}

  load(): ChatPreferences {
    return parseChatPreferences(this.storage.get(CHAT_PREFERENCES_KEY));
  }

  save(preferences: ChatPreferences): void {
    this.storage.set(CHAT_PREFERENCES_KEY, JSON.stringify(preferences));
  }
}
