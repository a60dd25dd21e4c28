import type { AssistantDatabase } from '../ai-assistant.port.js';

/**
 * Tells a turn whether its project has a database ready, and its tables (the databases context
 * answers it: DescribeDatabaseForAssistant). Optional in a turn's dependencies: without it, or
 * when it answers null or fails, the assistant is told of no database.
 */
export interface AssistantDatabaseSource {
  forProject(projectId: string): Promise<AssistantDatabase | null>;
}
