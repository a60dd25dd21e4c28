// The public entry point of @kiln/adapters: implementations of the domain's ports.
export * from './system/system-clock.adapter.js';
export * from './system/crypto-random.adapter.js';
export * from './system/uuid-ids.adapter.js';
