// What every AiAssistant stream promises (the port's doc), checked the same way for each adapter.
import type { AssistantEvent, PlanEvent } from '../ai/ai-assistant.port.js';
import { validateOperation } from '../ai/operations/file-operation.js';

export function streamProblems(events: readonly (AssistantEvent | PlanEvent)[]): string[] {
  const problems: string[] = [];
  const terminal = events.map((e, i) => (e.type === 'done' || e.type === 'error' ? i : -1)).filter((i) => i !== -1);
  if (terminal.length !== 1) problems.push(`expected exactly one done or error event, got ${terminal.length}`);
  else if (terminal[0] !== events.length - 1) problems.push('events follow the done or error event');
  for (const event of events) {
    if (event.type === 'operation') {
      const checked = validateOperation(event.operation);
      if (!checked.ok) problems.push(`invalid operation: ${checked.error.message}`);
    }
  }
  return problems;
}

export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}
