import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { resolveSimulatorConfig, type SimulatorConfigInput } from '../../adapters/simulator/index.js';
import { unreachableCause } from '../../core/contact-facts.js';
import { loadContactState } from '../../app/update-contact-state.js';
import { defaultDemoPlan, type DemoPlan } from './demo-plan.js';
import { measure, reachableAmong, retriesFromTruth } from './demo-metrics.js';
import { comparisonRows, renderedMessage, renderHtml, renderTable } from './demo-report.js';
import type { NaiveResult } from './naive-world.js';
import { runPacerWorld } from './pacer-world.js';

export interface DemoOptions {
  audience: number;
  outDir: string;
  out: (line: string) => void;
  /** Print the errors of Pacer's HTTP server (PACER_DEMO_LOG). */
  logErrors?: boolean;
}

/**
 * The world both strategies share. Modelling choices, not Meta's numbers: a per-user cap of 2-6
 * marketing messages a day across all businesses, and 0.1-2.5 a day arriving from others.
 */
export function demoSimulator(plan: DemoPlan): SimulatorConfigInput {
  return {
    seed: plan.seed,
    population: { size: plan.audience, otherMarketingPerDay: { min: 0.1, max: 2.5 } },
    cap: { minPerWindow: 2, maxPerWindow: 6 },
    rateLimits: { throughputMps: plan.mps },
    // Under load Meta delivers statuses seconds late and several to a POST; the demo leans on that.
    webhooks: { batchRate: 0.95, maxBatch: 200, latencyMs: { min: 1_000, max: 8_000 } },
  };
}

export async function runDemo(options: DemoOptions): Promise<{ pacer: ReturnType<typeof measure>; naive: ReturnType<typeof measure> }> {
  const plan = defaultDemoPlan(options.audience);
  const simulator = demoSimulator(plan);
  const start = Date.UTC(2026, 0, 5, 8, 0, 0);
  const began = Date.now();
  const out = options.out;
  mkdirSync(options.outDir, { recursive: true });
  out(
    `Pacer demo: ${plan.audience.toLocaleString('en-US')} contacts, ${plan.days} simulated days, one marketing campaign and ${plan.utility.length} order-update broadcasts.`,
  );
  out('The same simulated world runs twice: with Pacer, and with a naive sender (resend failures at once, drop whoever fails twice).');

  const days = { pacer: 0, naive: 0 };
  const show = () =>
    out(`  day ${days.pacer}/${plan.days} Pacer · day ${days.naive}/${plan.days} naive · ${((Date.now() - began) / 1000).toFixed(0)} s`);
  // Each world's own time, from the same start: the demo's speed is judged by their ratio.
  const took = { pacer: 0, naive: 0 };
  const naive = runNaiveInWorker(plan, simulator, start, (day) => {
    days.naive = day;
    show();
  }).then((r) => {
    took.naive = (Date.now() - began) / 1000;
    return r;
  });
  const pacer = await runPacerWorld(plan, simulator, start, {
    dataDir: path.join(options.outDir, 'pacer-data'),
    logErrors: options.logErrors === true,
    progress: (day) => {
      days.pacer = day;
      show();
    },
  });
  took.pacer = (Date.now() - began) / 1000;
  const naiveResult = await naive;

  // Pacer never suppresses a contact for a cap; count any contact it holds unreachable who is not.
  const users = pacer.users;
  const unreachable: number[] = [];
  for (const [i, id] of pacer.contactIds.entries()) {
    if (unreachableCause(await loadContactState(pacer.store, id)) !== null) unreachable.push(i);
  }
  const p = measure(pacer.truth, start, plan.days, retriesFromTruth(pacer.truth), reachableAmong(users, unreachable));
  const n = measure(naiveResult.truth, start, plan.days, naiveResult.retriesSpent, reachableAmong(users, naiveResult.suppressed));
  const rows = comparisonRows(p, n);
  const elapsed = ((Date.now() - began) / 1000).toFixed(1);
  const footnote = timingFootnote(simulator);
  out('');
  out(renderTable(rows));
  for (const line of footnote) out(line);
  out('');
  // Personalised per recipient: first name (or "there"), a coupon of their own in the shop link.
  const first = pacer.truth.messages.find((m) => m.template === plan.marketing.template && m.status !== 'failed');
  const sample = first === undefined ? [] : renderedMessage(first.rendered);
  if (sample.length > 0) {
    out("One message of Pacer's campaign, as its recipient read it:");
    for (const line of sample) out(`  ${line}`);
    out('');
  }
  const report = path.join(options.outDir, 'report.html');
  writeFileSync(
    report,
    renderHtml(
      'Pacer versus a naive sender',
      `${plan.audience.toLocaleString('en-US')} contacts, ${plan.days} simulated days, seed ${plan.seed}; finished in ${elapsed} s.`,
      rows,
      p,
      n,
      sample,
      footnote.join(' '),
    ),
  );
  out(`Report: ${report}`);
  const dataDir = path.join(options.outDir, 'pacer-data');
  out(`Pacer's database (SQLite): ${path.join(dataDir, 'pacer.sqlite')}`);
  out(`Dashboard on it: PACER_DATA_DIR=${dataDir} npx pacer token create --name dashboard   (prints a sign-in token once)`);
  out(`                 PACER_DATA_DIR=${dataDir} npx pacer serve --no-dispatch   then open http://127.0.0.1:3000/`);
  out(`Try: npx pacer explain 131049`);
  await pacer.store.close();
  out(`Finished in ${elapsed} s (Pacer's world ${took.pacer.toFixed(1)} s, the naive world ${took.naive.toFixed(1)} s, run side by side).`);
  return { pacer: p, naive: n };
}

/** What the two timing rows count, with the night hours the simulated world uses. */
function timingFootnote(simulator: SimulatorConfigInput): string[] {
  const { fromHour, toHour } = resolveSimulatorConfig(simulator).reactions.night;
  const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
  return [
    `At night: delivered ${hh(fromHour)}–${hh(toHour)} on the recipient's clock. Late: delivered more than 24 h after`,
    "the first request for that recipient and template (retries included). Shares are of each side's deliveries.",
  ];
}

function runNaiveInWorker(
  plan: DemoPlan,
  simulator: SimulatorConfigInput,
  start: number,
  progress: (day: number) => void,
): Promise<NaiveResult> {
  // Same file type as this module: .ts under tsx, .js once compiled.
  const ext = path.extname(new URL(import.meta.url).pathname);
  const file = new URL(`./naive-worker${ext}`, import.meta.url);
  // Under tsx the worker registers the same TypeScript loader before importing the module.
  const worker =
    ext === '.ts'
      ? new Worker(`import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(file.href)}); });`, {
          eval: true,
          workerData: { plan, simulator, start },
        })
      : new Worker(file, { workerData: { plan, simulator, start } });
  return new Promise((resolve, reject) => {
    worker.on(
      'message',
      (m: { type: 'progress'; day: number } | { type: 'done'; result: Omit<NaiveResult, 'suppressed'> & { suppressed: number[] } }) => {
        if (m.type === 'progress') progress(m.day);
        else resolve({ ...m.result, suppressed: new Set(m.result.suppressed) });
      },
    );
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (code !== 0) reject(new Error(`naive world stopped with code ${code}`));
    });
  });
}
