// Choosing the AiAssistant: Anthropic, any OpenAI-compatible endpoint, or the offline generator
// when no provider is configured.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { AiAssistant } from '@kiln/domain';
import { OfflineAiAssistant } from '@kiln/offline-assistant';
import { AiSdkAssistant } from './ai-sdk-assistant.adapter.js';

export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-5';

export interface AnthropicAssistantSettings {
  readonly apiKey: string;
  /** Default DEFAULT_ANTHROPIC_MODEL. */
  readonly model?: string;
  /** Default Anthropic's API (https://api.anthropic.com/v1). */
  readonly baseURL?: string;
  readonly maxOutputTokens?: number;
  /** Retries of a failed call (default 1). */
  readonly maxRetries?: number;
  readonly fetch?: typeof globalThis.fetch;
}

/** Claude through Anthropic's Messages API, with the system prompt and tools in the prompt cache. */
export function createAnthropicAssistant(settings: AnthropicAssistantSettings): AiSdkAssistant {
  const provider = createAnthropic({
    apiKey: settings.apiKey,
    ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });
  const id = settings.model ?? DEFAULT_ANTHROPIC_MODEL;
  return new AiSdkAssistant({
    model: provider(id),
    info: { provider: 'anthropic', id, offline: false },
    promptCaching: true,
    maxOutputTokens: settings.maxOutputTokens ?? 16_000,
    ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
  });
}

export interface OpenAiCompatibleAssistantSettings {
  /** A short name of the endpoint, e.g. 'openai', 'openrouter', 'ollama'. */
  readonly name: string;
  /** e.g. https://api.openai.com/v1 or http://localhost:11434/v1 */
  readonly baseURL: string;
  readonly model: string;
  readonly apiKey?: string;
  readonly maxOutputTokens?: number;
  readonly maxRetries?: number;
  readonly fetch?: typeof globalThis.fetch;
}

/** Any endpoint that speaks OpenAI's chat completions API (OpenAI, OpenRouter, Ollama, vLLM, …). */
export function createOpenAiCompatibleAssistant(settings: OpenAiCompatibleAssistantSettings): AiSdkAssistant {
  const provider = createOpenAICompatible({
    name: settings.name,
    baseURL: settings.baseURL,
    includeUsage: true,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });
  return new AiSdkAssistant({
    model: provider.chatModel(settings.model),
    info: { provider: settings.name, id: settings.model, offline: false },
    promptCaching: false,
    ...(settings.maxOutputTokens !== undefined ? { maxOutputTokens: settings.maxOutputTokens } : {}),
    ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
  });
}

export type AiProviderSettings =
  | ({ readonly provider: 'anthropic' } & AnthropicAssistantSettings)
  | ({ readonly provider: 'openai-compatible' } & OpenAiCompatibleAssistantSettings)
  | { readonly provider: 'offline' };

/** The assistant for the configured provider; the deterministic offline generator when there is none. */
export function createAiAssistant(settings: AiProviderSettings | undefined): AiAssistant {
  if (settings === undefined || settings.provider === 'offline') return new OfflineAiAssistant();
  if (settings.provider === 'anthropic') return createAnthropicAssistant(settings);
  return createOpenAiCompatibleAssistant(settings);
}
