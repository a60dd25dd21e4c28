export interface StreamEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

export interface StreamReply {
  readonly status: number;
  readonly contentType: string;
  /** The events of an event-stream reply (empty otherwise). */
  readonly events: StreamEvent[];
  readonly comments: string[];
  /** The JSON body of a non-stream reply. */
  readonly json: Record<string, unknown> | null;
}

/** Parses a whole text/event-stream body into events and comment lines. */
export function parseEventStream(text: string): { events: StreamEvent[]; comments: string[] } {
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  for (const block of text.split('\n\n')) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comments.push(line.slice(1).trim());
      else if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) events.push({ event, data: JSON.parse(data.join('\n')) as Record<string, unknown> });
  }
  return { events, comments };
}

/** POSTs JSON and reads the whole reply: the builder's fetch stream, for tests. */
export async function postStream(url: string, headers: Record<string, string>, body: unknown): Promise<StreamReply> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...headers }, body: JSON.stringify(body) });
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (contentType.startsWith('text/event-stream')) return { status: response.status, contentType, ...parseEventStream(text), json: null };
  return { status: response.status, contentType, events: [], comments: [], json: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
}
