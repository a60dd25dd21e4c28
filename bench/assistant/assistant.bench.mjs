// How good is the assistant at what people ask? (issue #14 item 17). Runs the fixed set of
// requests of cases.mjs end to end through the built API (embedded PostgreSQL, the real sandbox
// host, the preview proxy), with whatever model the API is configured with (no AI variable: the
// offline assistant; ANTHROPIC_API_KEY / OPENAI_* are passed through, README "Configuration"), and
// checks each case in Chromium on the live preview (checks.mjs).
//
// Per case: a new account (upgraded to Pro through the local test checkout, so a model that plans
// more tasks is not stopped by the free plan's 5 credits), a new project with its preview up, the
// case's setup (turns, auto-run, each must be kept; files written by hand), then the measured
// prompt (auto-run). Then: the outcome the case expects (kept by default), find-errors 'checked'
// with 0 errors, no console errors in the page, and the case's expectations.
//
//   npm run bench assistant                       every case
//   BENCH_CASES=pantry,dark npm run bench assistant   only cases whose id contains one of these
//   BENCH_OUT=dir                                 where the JSON + markdown summary go
//                                                 (default bench/assistant/results/)
//   BENCH_DEBUG=1                                 the API's output and more detail
import { chromium } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BASE, debug, json, proAccount, signUp, startApi, stopApi, readTurnEvents } from '../lib/kiln-api.mjs';
import { CASES } from './cases.mjs';
import { CHECKS, missingWords, until, visibleText } from './checks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(process.env.BENCH_OUT ?? path.join(here, 'results'));
const only = (process.env.BENCH_CASES ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Reads a turn's SSE reply until its last event (`done`, `error`, or `awaiting_approval`). */
async function readTurn(response) {
  if (!response.ok) return [{ event: 'error', at: performance.now(), data: { status: response.status, ...(await response.json().catch(() => ({}))) } }];
  return readTurnEvents(response, ['done', 'error', 'awaiting_approval']);
}

/** What a turn came to, from its events. */
function outcomeOf(events) {
  const last = events.at(-1);
  const plan = events.find((e) => e.event === 'plan')?.data;
  // `credits` events carry the turn's totals so far (charged, refunded): the last one is the turn's.
  const credits = events.filter((e) => e.event === 'credits').at(-1)?.data;
  const base = {
    charged: credits?.charged ?? 0,
    refunded: credits?.refunded ?? 0,
    creditsRemaining: credits?.credits_remaining ?? null,
    plan: plan ? { kind: plan.kind, tasks: plan.tasks.length, replaces_app: plan.replaces_app } : null,
    turnId: events.find((e) => e.event === 'turn')?.data?.turn_id ?? null,
    errors: events.filter((e) => e.event === 'errors').at(-1)?.data ?? null,
  };
  if (last?.event === 'done') return { ...base, outcome: last.data.status, message: last.data.message };
  if (last?.event === 'awaiting_approval') return { ...base, outcome: plan?.replaces_app ? 'awaiting-replace' : 'awaiting', message: '' };
  if (last?.event === 'error') return { ...base, outcome: last.data.code === 'AI.DECLINED' ? 'declined' : `error ${last.data.code ?? last.data.status}`, message: last.data.detail ?? '' };
  return { ...base, outcome: 'no end', message: '' };
}

const OUTCOME_OK = {
  kept: (o) => o === 'kept',
  declined: (o) => o === 'declined',
  'awaiting-replace': (o) => o === 'awaiting-replace',
  'not-replaced': (o) => o === 'declined' || o === 'kept',
};

async function api(method, route, auth, body) {
  return json(await fetch(`${BASE}${route}`, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
}


async function runTurn(projectId, auth, message) {
  const t0 = performance.now();
  const events = await readTurn(
    await fetch(`${BASE}/api/projects/${projectId}/turns`, { method: 'POST', headers: auth, body: JSON.stringify({ message, idempotency_key: randomUUID(), auto_run: true }) }),
  );
  return { t0, events, tDone: events.at(-1)?.at ?? performance.now(), ...outcomeOf(events) };
}

/** Every file of the project (the SPEC §9 ignore list applies), path → content. */
async function snapshot(projectId, auth) {
  const tree = await api('GET', `/api/sandbox/${projectId}/get-tree?path=.`, auth);
  const paths = [];
  const walk = (entries) => {
    for (const e of entries) {
      if (e.type === 'directory') walk(e.children ?? []);
      else paths.push(e.path.replace(/^\.\//, ''));
    }
  };
  walk(tree);
  const files = new Map();
  for (const p of paths.sort()) {
    const res = await fetch(`${BASE}/api/sandbox/${projectId}/read-file?path=${encodeURIComponent(p)}`, { headers: auth });
    files.set(p, res.ok ? (await res.json()).content : `<unreadable ${res.status}>`);
  }
  return files;
}

async function runCase(browser, c) {
  const result = { id: c.id, kind: c.kind, prompt: c.prompt, pass: false, failures: [], outcome: null, credits: null, setupCredits: 0, turnMs: null, previewMs: null, consoleErrors: [] };
  const auth = await proAccount();
  const project = await api('POST', '/api/projects', auth, { name: `Bench ${c.id}` });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const info = await api('POST', `/api/sandbox/${project.id}/ensure`, auth);
    const origin = new URL(info.url).origin;
    const page = await context.newPage();
    // The preview token exchange: the proxy sets the preview cookie and redirects to the app.
    await page.goto(info.url);
    let listening = false;
    const consoleErrors = [];
    page.on('console', (m) => listening && m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => listening && consoleErrors.push(String(e.message ?? e)));
    // "Failed to load resource" names no URL: the failed responses say which.
    const failedLoads = [];
    page.on('response', (r) => listening && r.status() >= 400 && failedLoads.push(`${r.status()} ${r.url()}`));
    let loads = 0;
    const open = async (route) => {
      await page.goto('about:blank');
      await page.goto(`${origin}/?load=${++loads}${route ?? ''}`);
      // The app's own root, not the proxy's "Starting your app…" page (it refreshes itself).
      const rendered = await until(() => page.evaluate(() => (document.querySelector('#root')?.textContent ?? '').trim().length > 0), 30_000, 200);
      if (!rendered) throw new Error(`the preview did not render the app: "${(await visibleText(page).catch(() => '')).replace(/\s+/g, ' ').slice(0, 160)}"`);
      return page;
    };

    for (const step of c.setup ?? []) {
      if (step.turn) {
        const turn = await runTurn(project.id, auth, step.turn);
        result.setupCredits += turn.charged - turn.refunded;
        if (turn.outcome !== 'kept') throw new Error(`setup turn "${step.turn}" ended ${turn.outcome}: ${turn.message}`);
      } else if (step.write) {
        await api('POST', `/api/sandbox/${project.id}/write-file`, auth, step.write);
      }
    }
    const before = await snapshot(project.id, auth);

    const turn = await runTurn(project.id, auth, c.prompt);
    result.outcome = turn.outcome;
    result.plan = turn.plan;
    result.message = turn.message.slice(0, 300);
    result.credits = turn.charged - turn.refunded;
    result.turnMs = Math.round(turn.tDone - turn.t0);
    const expected = c.outcome ?? 'kept';
    if (!OUTCOME_OK[expected](turn.outcome)) result.failures.push(`outcome: expected ${expected}, got ${turn.outcome}${turn.message ? ` (${turn.message.slice(0, 160)})` : ''}`);
    if (turn.outcome.startsWith('awaiting') && turn.turnId) await api('POST', `/api/projects/${project.id}/turns/${turn.turnId}/cancel`, auth);

    // Prompt → a fresh load of the preview renders the app (and, when the case names words on
    // its home page, shows the first of them): what the person sees after the turn.
    listening = true;
    let shown = false;
    try {
      await open();
      const firstWords = c.expect.find((e) => e.check === 'text' && !e.route)?.words ?? c.expect.find((e) => e.check === 'appName')?.name;
      shown = firstWords ? (await missingWords(page, [].concat(firstWords).slice(0, 1), 15_000)).length === 0 : true;
    } catch (error) {
      result.failures.push(`preview: ${String(error.message ?? error).split('\n')[0]}`);
    }
    // Not counted when the words never came (the case fails on them anyway).
    result.previewMs = shown ? Math.round(performance.now() - turn.t0) : null;

    const after = await snapshot(project.id, auth);
    const scan = await api('POST', `/api/sandbox/${project.id}/find-errors`, auth, {});
    result.findErrors = { status: scan.status, error_count: scan.error_count, first: scan.errors[0] ?? null };
    if (scan.status !== 'checked' || scan.error_count > 0) {
      const first = scan.errors[0];
      result.failures.push(`find-errors: ${scan.status}, ${scan.error_count} error(s)${first ? ` — ${first.file}:${first.line} ${first.message}` : ''}${scan.unavailable_reason ? ` (${scan.unavailable_reason})` : ''}`);
    }

    const ctx = { open, before, after, turn };
    for (const e of c.expect) {
      const check = CHECKS[e.check];
      let failure;
      try {
        failure = check ? await check(ctx, e) : `unknown check ${e.check}`;
      } catch (error) {
        failure = `threw: ${String(error.message ?? error).split('\n')[0]}`;
      }
      if (failure) result.failures.push(`${e.check}: ${failure}`);
    }
    listening = false;
    if (result.failures.length > 0) {
      // What the page showed at the last check, for whoever looks into the failure.
      mkdirSync(OUT, { recursive: true });
      await page.screenshot({ path: path.join(OUT, `${c.id}.png`), fullPage: true }).catch(() => {});
      result.screenshot = `${c.id}.png`;
      result.pageText = (await visibleText(page).catch(() => '')).replace(/\s+/g, ' ').slice(0, 300);
    }
    result.consoleErrors = [...new Set(consoleErrors)].slice(0, 5);
    if (consoleErrors.length > 0) result.failures.push(`console: ${consoleErrors.length} error(s), first: ${consoleErrors[0].slice(0, 200)}${failedLoads.length > 0 ? ` (failed loads: ${[...new Set(failedLoads)].slice(0, 3).join(', ')})` : ''}`);
  } catch (error) {
    result.failures.push(`harness: ${String(error.message ?? error).split('\n')[0]}`);
  } finally {
    await context.close();
    await fetch(`${BASE}/api/sandbox/${project.id}/cleanup`, { method: 'DELETE', headers: auth }).catch(() => {});
    await fetch(`${BASE}/api/projects/${project.id}`, { method: 'DELETE', headers: auth }).catch(() => {});
  }
  result.pass = result.failures.length === 0;
  return result;
}

function median(values) {
  const v = values.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (v.length === 0) return null;
  return v[Math.floor((v.length - 1) / 2)];
}
function p90(values) {
  const v = values.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return v.length === 0 ? null : v[Math.min(v.length - 1, Math.ceil(0.9 * v.length) - 1)];
}
const secs = (ms) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);

function markdown(report) {
  const lines = [
    `# Assistant evaluation — ${report.model.provider} / ${report.model.id}`,
    '',
    `${report.date}, \`npm run bench assistant\`, node ${report.node}, ${report.cores} cores, load average at the start ${report.loadAtStart.join(' / ')}.`,
    '',
    `**${report.passed} / ${report.total} cases pass (${report.passRate} %)** — builds ${report.builds.passed}/${report.builds.total}, edits ${report.edits.passed}/${report.edits.total}. Credits spent on the measured prompts: ${report.credits}.`,
    '',
    `Prompt → turn done: median ${secs(report.turn.median)}, p90 ${secs(report.turn.p90)}. Prompt → preview showing the result: median ${secs(report.preview.median)}, p90 ${secs(report.preview.p90)}.`,
    '',
    '| case | kind | result | outcome | credits | turn | preview | failed expectation |',
    '|---|---|---|---|---|---|---|---|',
    ...report.cases.map((r) => `| ${r.id} | ${r.kind} | ${r.pass ? 'pass' : '**FAIL**'} | ${r.outcome ?? '—'} | ${r.credits ?? '—'} | ${secs(r.turnMs)} | ${secs(r.previewMs)} | ${r.failures.join('<br>').replace(/\|/g, '\\|')} |`),
    '',
  ];
  return lines.join('\n');
}

const cases = only.length === 0 ? CASES : CASES.filter((c) => only.some((o) => c.id.includes(o)));
const loadAtStart = os.loadavg().map((l) => Number(l.toFixed(2)));
const started = new Date();
const server = await startApi();
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
let status = 0;
try {
  const model = await (await fetch(`${BASE}/api/ai/model`, { headers: await signUp() })).json();
  console.log(`assistant bench: ${cases.length} cases, model ${model.provider} / ${model.id}, load average ${loadAtStart.join(' / ')}`);
  const results = [];
  for (const c of cases) {
    const r = await runCase(browser, c);
    results.push(r);
    console.log(`${r.pass ? 'pass' : 'FAIL'}  ${c.id.padEnd(34)} ${String(r.outcome).padEnd(16)} turn ${secs(r.turnMs).padStart(6)}  preview ${secs(r.previewMs).padStart(6)}  credits ${r.credits ?? '—'}${r.pass ? '' : `\n      ${r.failures.join('\n      ')}`}`);
    debug(JSON.stringify(r));
  }
  const of = (kind) => ({ total: results.filter((r) => r.kind === kind).length, passed: results.filter((r) => r.kind === kind && r.pass).length });
  const passed = results.filter((r) => r.pass).length;
  const report = {
    date: started.toISOString(),
    model,
    node: process.version,
    cores: os.cpus().length,
    loadAtStart,
    loadAtEnd: os.loadavg().map((l) => Number(l.toFixed(2))),
    total: results.length,
    passed,
    passRate: Number(((100 * passed) / Math.max(1, results.length)).toFixed(1)),
    builds: of('build'),
    edits: of('edit'),
    credits: results.reduce((n, r) => n + (r.credits ?? 0), 0),
    setupCredits: results.reduce((n, r) => n + r.setupCredits, 0),
    turn: { median: median(results.map((r) => r.turnMs)), p90: p90(results.map((r) => r.turnMs)) },
    preview: { median: median(results.map((r) => r.previewMs)), p90: p90(results.map((r) => r.previewMs)) },
    wallSeconds: Math.round((Date.now() - started.getTime()) / 1000),
    cases: results,
  };
  mkdirSync(OUT, { recursive: true });
  const base = `assistant-${report.model.provider}-${started.toISOString().slice(0, 19).replace(/[:T]/g, '-')}`;
  writeFileSync(path.join(OUT, `${base}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(OUT, `${base}.md`), markdown(report));
  console.log(`\n${passed} / ${results.length} pass (${report.passRate} %): builds ${report.builds.passed}/${report.builds.total}, edits ${report.edits.passed}/${report.edits.total}; credits ${report.credits} (+${report.setupCredits} in setup)`);
  console.log(`prompt → turn done: median ${secs(report.turn.median)}, p90 ${secs(report.turn.p90)}; prompt → preview: median ${secs(report.preview.median)}, p90 ${secs(report.preview.p90)}; ${report.wallSeconds} s in all`);
  console.log(`summary: ${path.relative(process.cwd(), path.join(OUT, `${base}.md`))} (+ .json)`);
} catch (error) {
  console.error(error);
  status = 1;
} finally {
  await browser.close();
  await stopApi(server);
}
process.exit(status);
