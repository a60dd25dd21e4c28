import { type AiProviderSettings, createAiAssistant } from '@kiln/adapters';
import type { AiAssistant } from '@kiln/domain';
import type { AiProviderConfig } from '../config.js';

/** The adapters' provider settings for the configured provider. */
export function aiProviderSettings(config: AiProviderConfig): AiProviderSettings {
  switch (config.provider) {
    case 'offline':
      return { provider: 'offline' };
    case 'anthropic':
      return { provider: 'anthropic', apiKey: config.apiKey, ...(config.model !== null ? { model: config.model } : {}) };
    case 'openai-compatible':
      return {
        provider: 'openai-compatible',
        name: config.name,
        baseURL: config.baseURL,
        model: config.model,
        ...(config.apiKey !== null ? { apiKey: config.apiKey } : {}),
      };
  }
}

/** The assistant for the configured provider (the deterministic offline one when none is). */
export function assistantFromConfig(config: AiProviderConfig): AiAssistant {
  return createAiAssistant(aiProviderSettings(config));
}
