import { describe, expect, it } from '@jest/globals';
import { prettyLogLine } from './log-format.js';
import { prettyDestination, StartupLogger, wantsColour } from './log-output.js';

// Local time, as the line shows it: 03:04:05.006.
const time = new Date(2026, 0, 2, 3, 4, 5, 6).getTime();
const plain = { colour: false };
const ESC = '\u001b[';

describe('prettyLogLine — requests', () => {
  const request = { level: 30, time, pid: 1, hostname: 'h', req: { id: 'r1', method: 'GET', url: '/api/projects?page=2' }, res: { statusCode: 200 }, responseTime: 12.4, msg: 'request completed' };

  it('writes one line: time, method, path with its query, status, duration', () => {
    expect(prettyLogLine(request, plain)).toBe('03:04:05.006 GET /api/projects?page=2 200 12ms');
  });

  it('never writes a capability token from the query', () => {
    const line = prettyLogLine({ ...request, req: { method: 'GET', url: '/local-checkout/cs_1?token=eyJ.secret&x=1' } }, plain);
    expect(line).toBe('03:04:05.006 GET /local-checkout/cs_1?token=[redacted]&x=1 200 12ms');
    expect(line).not.toContain('secret');
  });

  it('says why a request failed, with the stack of a server error under it', () => {
    const err = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at f (x.js:1:1)' };
    const line = prettyLogLine({ ...request, level: 50, res: { statusCode: 500 }, err, msg: 'request errored' }, plain);
    expect(line).toBe('03:04:05.006 GET /api/projects?page=2 500 12ms boom\n    Error: boom\n        at f (x.js:1:1)');
  });

  it('colours the status by its class when asked', () => {
    const coloured = (statusCode: number) => prettyLogLine({ ...request, res: { statusCode } }, { colour: true }) ?? '';
    expect(coloured(201)).toContain(`${ESC}32m201`);
    expect(coloured(302)).toContain(`${ESC}36m302`);
    expect(coloured(404)).toContain(`${ESC}33m404`);
    expect(coloured(503)).toContain(`${ESC}31m503`);
    expect(prettyLogLine(request, plain)).not.toContain(ESC);
  });
});

describe('prettyLogLine — other records', () => {
  it('writes time, level, context and message', () => {
    expect(prettyLogLine({ level: 30, time, pid: 1, hostname: 'h', context: 'Main', msg: 'Kiln API listening on port 3000' }, plain)).toBe(
      '03:04:05.006 INFO  [Main] Kiln API listening on port 3000',
    );
    expect(prettyLogLine({ level: 40, time, msg: 'no bubblewrap' }, plain)).toBe('03:04:05.006 WARN  no bubblewrap');
  });

  it('keeps extra fields and an error stack', () => {
    const line = prettyLogLine({ level: 50, time, context: 'Kiln', msg: 'failed', projectId: 'p1', err: { type: 'TypeError', message: 'x is undefined' } }, plain);
    expect(line).toBe('03:04:05.006 ERROR [Kiln] failed projectId=p1\n    TypeError: x is undefined');
  });

  it("leaves out Nest's module and route wiring, but not its warnings", () => {
    for (const context of ['InstanceLoader', 'RoutesResolver', 'RouterExplorer']) expect(prettyLogLine({ level: 30, time, context, msg: 'Mapped {/health, GET} route' }, plain)).toBeNull();
    expect(prettyLogLine({ level: 40, time, context: 'RouterExplorer', msg: 'duplicate' }, plain)).toBe('03:04:05.006 WARN  [RouterExplorer] duplicate');
    expect(prettyLogLine({ level: 30, time, context: 'NestApplication', msg: 'Nest application successfully started' }, plain)).not.toBeNull();
  });

  it('colours the level when asked', () => {
    expect(prettyLogLine({ level: 50, time, msg: 'x' }, { colour: true })).toContain(`${ESC}31mERROR`);
  });
});

describe('log output', () => {
  const collector = (isTTY = false) => {
    const lines: string[] = [];
    return { lines, sink: { isTTY, write: (text: string) => lines.push(text) } };
  };

  it('turns each JSON line pino writes into a readable line, dropping the wiring chatter', () => {
    const { lines, sink } = collector();
    const destination = prettyDestination(sink, false);
    destination.write(`${JSON.stringify({ level: 30, time, context: 'InstanceLoader', msg: 'AppModule dependencies initialized' })}\n`);
    destination.write(`${JSON.stringify({ level: 30, time, context: 'Main', msg: 'ready' })}\n`);
    destination.write('not json\n');
    expect(lines).toEqual(['03:04:05.006 INFO  [Main] ready\n', 'not json\n']);
  });

  it('colours a terminal unless NO_COLOR is set, and anything with FORCE_COLOR', () => {
    expect(wantsColour({ isTTY: true, write: () => 0 }, {})).toBe(true);
    expect(wantsColour({ isTTY: true, write: () => 0 }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColour({ isTTY: false, write: () => 0 }, {})).toBe(false);
    expect(wantsColour({ write: () => 0 }, { FORCE_COLOR: '1' })).toBe(true);
  });

  it('the start-up logger writes JSON records for LOG_FORMAT=json and readable lines for pretty', () => {
    const json = collector();
    new StartupLogger('json', json.sink, {}).warn('no bubblewrap', 'Main');
    expect(JSON.parse(json.lines[0] ?? '')).toMatchObject({ level: 40, context: 'Main', msg: 'no bubblewrap' });
    const pretty = collector();
    new StartupLogger('pretty', pretty.sink, {}).error('failed', undefined, 'Main');
    expect(pretty.lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR \[Main\] failed\n$/);
  });
});
