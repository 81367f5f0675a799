import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../src/adapters/simulator/index.js';
import { runCli } from '../src/main/cli.js';
import { eventually } from './await-state.js';
import { plainTemplates } from './plain-templates.js';

const SECRET = 'serve-test-secret';
let sim: Simulator | null = null;
let children: ChildProcess[] = [];
let dir = '';

afterEach(async () => {
  // Stop every process at once; one that has not exited 10 s after SIGTERM is killed, so a slow
  // shutdown cannot leave processes behind (graceful stop itself is asserted in the crash test).
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  await Promise.all(
    running.map(async (child) => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }),
  );
  children = [];
  await sim?.stop();
  sim = null;
  rmSync(dir, { recursive: true, force: true });
  for (const k of ['PACER_DATA_DIR', 'WHATSAPP_PHONE_NUMBER_ID']) delete process.env[k];
}, 30_000);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A simulator, a temp data dir with one consenting contact, one queued order update, and the env to run Pacer. */
async function world() {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-serve-'));
  const port = await freePort();
  const fast = { min: 1, max: 5 };
  sim = await startSimulator({
    seed: 5,
    templates: plainTemplates(),
    appSecret: SECRET,
    callbackUrl: `http://127.0.0.1:${port}/webhooks/whatsapp`,
    population: { size: 20, notOnWhatsAppRate: 0, experimentRate: 0, stoppedRate: 0, countries: { GB: 1 } },
    reactions: { sentDelayMs: fast, deliveredDelayMs: fast, readDelayMs: fast },
    webhooks: { latencyMs: fast, outOfOrderRate: 0, duplicateRate: 0 },
  });
  const user = sim.users[0];
  if (!user) throw new Error('a simulated user expected');
  const env = {
    ...process.env,
    PACER_DATA_DIR: dir,
    PACER_PORT: String(port),
    WHATSAPP_APP_SECRET: SECRET,
    WHATSAPP_VERIFY_TOKEN: 'v',
    WHATSAPP_ACCESS_TOKEN: sim.config.accessToken,
    WHATSAPP_PHONE_NUMBER_ID: sim.config.phoneNumberId,
    WHATSAPP_API_BASE_URL: sim.url,
  };
  process.env.PACER_DATA_DIR = dir;
  process.env.WHATSAPP_PHONE_NUMBER_ID = sim.config.phoneNumberId;
  const csv = path.join(dir, 'contacts.csv');
  writeFileSync(csv, `phone,name,consent_utility\n+${user.phone},Ana,yes\n`);
  expect(
    await runCli(
      ['import', 'contacts', csv],
      () => undefined,
      () => undefined,
    ),
  ).toBe(0);
  const sent: string[] = [];
  expect(
    await runCli(
      ['send', '--to', `+${user.phone}`, '--template', 'order_update', '--key', 'order-42', '--json'],
      (t) => sent.push(t),
      () => undefined,
    ),
  ).toBe(0);
  expect(JSON.parse(sent.join(''))).toMatchObject({ queued: true, decision: { kind: 'send' } });
  expect(
    await runCli(
      ['send', '--to', `+${user.phone}`, '--template', 'order_update', '--key', 'order-42'],
      () => undefined,
      () => undefined,
    ),
  ).toBe(0);
  return { sim, user, env };
}

function pacer(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn('node', ['bin/pacer.js', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

describe('pacer serve, worker and send, as separate processes on real time', () => {
  it('delivers a queued utility message through the Cloud API and records the signed webhooks', async () => {
    const { sim: s, user, env } = await world();
    pacer(['serve'], env);
    expect(
      await eventually(() => s.groundTruth().messages.some((m) => m.to === user.phone && m.readAt !== null), Date.now() + 20_000, 25),
    ).toBe(true);
    const truth = s.groundTruth();
    expect(truth.messages.filter((m) => m.to === user.phone)).toHaveLength(1); // the same key never sends twice
    expect(truth.webhooks.failures).toEqual({}); // every signed webhook was accepted
  });

  it('splits the edge from sending: serve --no-dispatch takes the webhooks, a worker sends', async () => {
    const { sim: s, user, env } = await world();
    const said = { serve: '', worker: '' };
    pacer(['serve', '--no-dispatch'], env).stdout?.on('data', (b: Buffer) => (said.serve += b.toString('utf8')));
    // The edge first: a worker that sends before anyone listens for the webhooks earns refused
    // deliveries (which the simulator, like Meta, retries later).
    expect(await eventually(() => said.serve.includes('Not dispatching'), Date.now() + 20_000, 25)).toBe(true);
    pacer(['worker'], { ...env, PACER_WORKER_PORT: '0' }).stdout?.on('data', (b: Buffer) => (said.worker += b.toString('utf8')));
    expect(await eventually(() => said.worker.includes('Dispatching from phone number id'), Date.now() + 20_000, 25)).toBe(true);
    expect(said.serve).not.toContain('Dispatching from');
    expect(
      await eventually(() => s.groundTruth().messages.some((m) => m.to === user.phone && m.readAt !== null), Date.now() + 20_000, 25),
    ).toBe(true);
    expect(s.groundTruth().messages.filter((m) => m.to === user.phone)).toHaveLength(1);
    expect(s.groundTruth().webhooks.failures).toEqual({});
    const token = process.env.WHATSAPP_ACCESS_TOKEN;
    delete process.env.WHATSAPP_ACCESS_TOKEN;
    try {
      expect(
        await runCli(
          ['worker'],
          () => undefined,
          () => undefined,
        ),
      ).toBe(2); // a worker without credentials
    } finally {
      if (token !== undefined) process.env.WHATSAPP_ACCESS_TOKEN = token;
    }
  });

  it('refuses a send without a template or text, and an invalid number, with exit code 2', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-serve-'));
    process.env.PACER_DATA_DIR = dir;
    process.env.WHATSAPP_PHONE_NUMBER_ID = '123';
    expect(
      await runCli(
        ['send', '--to', '+447700900123'],
        () => undefined,
        () => undefined,
      ),
    ).toBe(2);
    expect(
      await runCli(
        ['send', '--to', '12', '--template', 'x'],
        () => undefined,
        () => undefined,
      ),
    ).toBe(2);
    expect(
      await runCli(
        ['send', '--to', '+447700900123', '--text', 'hi'],
        () => undefined,
        () => undefined,
      ),
    ).toBe(2);
  });
});
