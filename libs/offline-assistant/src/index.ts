// The public entry point of @kiln/offline-assistant: the deterministic app generator that
// implements the domain's AiAssistant port, the default model when no AI provider is configured.
export * from './offline-assistant.adapter.js';
export { DATA_TABLES, MIGRATION_PATH, migrationSql, dataTableFor, type DataTable, type DataTableName } from './data/data-tables.js';
export { SUPABASE_PACKAGE } from './data/data-app.js';
export { OfflineTemplateFiles } from './templates.js';
