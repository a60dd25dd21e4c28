import { inject, injectable } from 'inversify';
import { type KeyValueStorage, type SavedPrompts, STORAGE_KEYS, TYPES } from '../app/ports';

interface SavedPrompt {
  readonly prompt: string;
}

/**
 * SPEC §3 saved prompts, one JSON object under STORAGE_KEYS.savedPrompts:
 * `{ "<project id or 'home'>": { "prompt": "…" } }`. SPEC §5: any timestamp field is dropped on
 * load (only `prompt` is read). Unreadable data counts as nothing saved.
 */
@injectable()
export class StoredSavedPrompts implements SavedPrompts {
  constructor(@inject(TYPES.Storage) private readonly storage: KeyValueStorage) {}

  get(key: string): string | null {
    const prompt = this.load()[key]?.prompt;
    return typeof prompt === 'string' && prompt.trim() !== '' ? prompt : null;
  }

  set(key: string, prompt: string): void {
    this.save({ ...this.load(), [key]: { prompt } });
  }

  remove(key: string): void {
    const all = { ...this.load() };
    delete all[key];
    this.save(all);
  }

  private load(): Record<string, SavedPrompt> {
    const raw = this.storage.get(STORAGE_KEYS.savedPrompts);
    if (raw === null) return {};
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
      const result: Record<string, SavedPrompt> = {};
      for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
        const prompt = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['prompt'] : undefined;
        if (typeof prompt === 'string') result[key] = { prompt };
      }
      return result;
    } catch {
      return {};
    }
  }

  private save(all: Record<string, SavedPrompt>): void {
    if (Object.keys(all).length === 0) this.storage.remove(STORAGE_KEYS.savedPrompts);
    else this.storage.set(STORAGE_KEYS.savedPrompts, JSON.stringify(all));
  }
}
