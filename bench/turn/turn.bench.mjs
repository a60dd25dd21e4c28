// Prompt → preview showing the generated app, with the offline assistant, end to end through the
// built API (embedded PostgreSQL, real sandbox host, Vite dev server behind the preview proxy).
// Per run: a fresh project whose preview is already up (as in the builder); then, timed,
// POST /api/projects/{id}/turns "A todo list app called Chores" (auto-run) until the turn's
// `done` (kept: planned, tasks applied, type-checked and built, committed), and until the preview
// serves the new src/App.tsx. Median and p90 over BENCH_RUNS (default 10) after one warm-up run.
//
// Before each run it waits until the machine is quiet (every core under 10 % busy for two seconds
// in a row, at most 60 s): the figure is for a quiet machine, as a person meets it — Kiln's own
// background work (the dev server it starts ahead of the next new project) done. BENCH_BACK_TO_BACK=1
// starts each run at once instead (the machine still busy with the previous run's aftermath).
//
//   npm run bench turn            BENCH_RUNS=10 (default)
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { BASE, json, previewRequest, signUp, sleep, startApi, stopApi, summary, readTurnEvents, waitForQuiet } from '../lib/kiln-api.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 0);
const BACK_TO_BACK = process.env.BENCH_BACK_TO_BACK === '1';
// A different app name per run, so every generated app is new and its final scan really runs
// (find-errors reuses results for identical files; the starter's baseline scan is reused, as for
// every new project in production).
const NAMES = ['Chores', 'Errands', 'Tasks', 'Jobs', 'Duties', 'Goals', 'Plans', 'Steps', 'Lists', 'Notes', 'Items', 'Todos'];
const promptFor = (i) => `A todo list app called ${NAMES[i % NAMES.length]}`;
const STARTER_TEXT = 'Welcome to your Kiln app';

/** Reads an SSE reply until `done` (or `error`); returns the events by name. */
async function readTurn(response) {
  if (!response.ok) throw new Error(`turn refused: ${response.status} ${await response.text()}`);
  return readTurnEvents(response, ['done', 'error']);
}

async function previewUp(id, auth) {
  const info = await json(await fetch(`${BASE}/api/sandbox/${id}/ensure`, { method: 'POST', headers: auth }));
  const url = new URL(info.url);
  const exchange = await previewRequest(url.host, url.pathname + url.search);
  const cookie = String(exchange.headers['set-cookie']?.[0] ?? '').split(';')[0];
  const deadline = performance.now() + 60_000;
  for (;;) {
    if (performance.now() > deadline) throw new Error('the preview did not come up');
    const app = await previewRequest(url.host, '/src/App.tsx', { cookie });
    if (app.status === 200 && app.body.includes(STARTER_TEXT)) return { host: url.host, cookie };
    await sleep(20);
  }
}

async function oneRun(auth, label, prompt) {
  const project = await json(await fetch(`${BASE}/api/projects`, { method: 'POST', headers: auth, body: JSON.stringify({ name: `Turn ${label}` }) }));
  const { host, cookie } = await previewUp(project.id, auth);

  const t0 = performance.now();
  const events = await readTurn(
    await fetch(`${BASE}/api/projects/${project.id}/turns`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ message: prompt, idempotency_key: randomUUID(), auto_run: true }),
    }),
  );
  const done = events.at(-1);
  if (done?.event !== 'done' || done.data.status !== 'kept') throw new Error(`${label}: turn not kept: ${JSON.stringify(done)}`);
  const turnMs = performance.now() - t0;
  const deadline = performance.now() + 30_000;
  let served;
  for (;;) {
    if (performance.now() > deadline) throw new Error(`${label}: the preview never served the generated app`);
    served = await previewRequest(host, `/src/App.tsx?t=${Date.now()}`, { cookie });
    if (served.status === 200 && !served.body.includes(STARTER_TEXT)) break;
    await sleep(10);
  }
  const previewMs = performance.now() - t0;
  const tasks = events.filter((e) => e.event === 'task' && e.data.state === 'done').length;

  // An edit of the app just built, on the same project (its checks are warm now): one task.
  const heading = `Fresh start ${label}`;
  const t1 = performance.now();
  const edit = await readTurn(
    await fetch(`${BASE}/api/projects/${project.id}/turns`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ message: `Change the heading to "${heading}"`, idempotency_key: randomUUID(), auto_run: true }),
    }),
  );
  const editDone = edit.at(-1);
  if (editDone?.event !== 'done' || editDone.data.status !== 'kept') throw new Error(`${label}: edit not kept: ${JSON.stringify(editDone)}`);
  const editTurnMs = performance.now() - t1;
  // The file the edit wrote (the heading may live in a component).
  const edited = edit.find((e) => e.event === 'operation' && typeof e.data.path === 'string' && /\.tsx$/.test(e.data.path))?.data.path ?? 'src/App.tsx';
  for (;;) {
    if (performance.now() > deadline + 30_000) throw new Error(`${label}: the preview never served the edit (${edited})`);
    const page = await previewRequest(host, `/${edited}?t=${Date.now()}`, { cookie });
    if (page.status === 200 && page.body.includes(heading)) break;
    await sleep(10);
  }
  const editPreviewMs = performance.now() - t1;
  const editTasks = edit.filter((e) => e.event === 'task' && e.data.state === 'done').length;

  await fetch(`${BASE}/api/sandbox/${project.id}/cleanup`, { method: 'DELETE', headers: auth });
  await fetch(`${BASE}/api/projects/${project.id}`, { method: 'DELETE', headers: auth });
  // Where the time goes: offsets of the turn's events from the request (first occurrence each).
  const offsets = (list, start) => {
    const phases = {};
    for (const e of list) {
      const name = e.event === 'task' ? `task ${e.data.index} ${e.data.state}` : e.event === 'checking' ? `checking round ${e.data.round}` : e.event;
      phases[name] ??= Math.round(e.at - start);
    }
    return phases;
  };
  return { turnMs, previewMs, editTurnMs, editPreviewMs, tasks, editTasks, phases: offsets(events, t0), editPhases: offsets(edit, t1) };
}

const api = await startApi();
try {
  // Each build costs one credit per task and a free account has 5: a new account when needed.
  let auth = await signUp();
  let credits = 5;
  const run = async (label, prompt) => {
    if (credits < 5) {
      auth = await signUp();
      credits = 5;
    }
    const result = await oneRun(auth, label, prompt);
    credits -= result.tasks + result.editTasks;
    return result;
  };
  const warm = await run('warm-up', promptFor(NAMES.length - 1));
  console.log(`warm-up: prompt→turn done ${warm.turnMs.toFixed(0)} ms, prompt→preview ${warm.previewMs.toFixed(0)} ms`);
  const runs = [];
  const waits = [];
  for (let i = 0; i < RUNS; i++) {
    if (PAUSE_MS > 0) await sleep(PAUSE_MS);
    if (!BACK_TO_BACK) waits.push(await waitForQuiet());
    runs.push(await run(`run ${i + 1}`, promptFor(i)));
  }
  console.log(`turn bench, offline assistant, "${promptFor(0)}" (a new name each run), ${RUNS} runs (node ${process.version}, ${(await import('node:os')).cpus().length} cores)`);
  if (BACK_TO_BACK) console.log('each run started at once after the one before (BENCH_BACK_TO_BACK=1)');
  else console.log(`before each run, waited for a quiet machine: ${summary(waits.map((w) => w.waitedMs))}; quiet reached ${waits.filter((w) => w.quiet).length}/${waits.length} times`);
  console.log(`prompt → turn kept (plan, ${runs[0].tasks} tasks, type-check + build, commit): ${summary(runs.map((r) => r.turnMs))}`);
  console.log(`prompt → preview serving the generated app:                 ${summary(runs.map((r) => r.previewMs))}`);
  console.log(`edit on the same project ("Change the heading to …", 1 task) → turn kept: ${summary(runs.map((r) => r.editTurnMs))}`);
  console.log(`edit → preview serving it:                                    ${summary(runs.map((r) => r.editPreviewMs))}`);
  console.log(`event offsets of the last run (ms): ${JSON.stringify(runs.at(-1).phases)}`);
  console.log(`event offsets of the last run's edit (ms): ${JSON.stringify(runs.at(-1).editPhases)}`);
} finally {
  await stopApi(api);
}
