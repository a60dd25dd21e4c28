// The public entry point of @kiln/offline-assistant: the deterministic app generator that
// implements the domain's AiAssistant port, the default model when no AI provider is configured.
export * from './offline-assistant.adapter.js';
