import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signBody } from '../src/adapters/http/webhook-signature.js';
import { freePort } from './crash-rig.js';
import { eventually } from './await-state.js';
import { BACKENDS } from './store-backends.js';
import { SECRET, startServer, WEBHOOK } from './webhook-endpoint-server.js';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/meta-webhooks');
const TEXT = JSON.stringify((JSON.parse(readFileSync(path.join(FIXTURES, 'message.json'), 'utf8')) as Record<string, unknown>)['text']);
/** More than one processor batch (200), so the startup pass must keep going until nothing is left. */
const LEFT_OVER = 450;

let children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.filter((c) => c.exitCode === null && c.signalCode === null)) {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
  children = [];
});

describe.each(BACKENDS)('pacer serve --no-dispatch applies what a crash left unapplied ($name)', (backend) => {
  it('drains the stored webhooks at startup, before any new webhook arrives', async () => {
    const place = backend.place();
    const store = place.open();
    await store.migrate();
    // An edge that stores signed webhooks and dies before applying them: the server without its processor.
    const edge = await startServer(store);
    for (let i = 0; i < LEFT_OVER; i++) {
      const body = TEXT.replace('wamid.xyzxyz', `wamid.left-${i}`);
      const res = await edge.app.inject({
        method: 'POST',
        url: WEBHOOK,
        payload: body,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, SECRET) },
      });
      expect(res.statusCode).toBe(200);
    }
    await edge.app.close();
    expect(await store.listUnprocessedInbox(0, LEFT_OVER + 1)).toHaveLength(LEFT_OVER);

    const where =
      backend.name === 'sqlite'
        ? { PACER_DATA_DIR: place.options.dataDir ?? '' }
        : { DATABASE_URL: place.options.databaseUrl ?? '', PACER_DB_SCHEMA: place.options.schema ?? '' };
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...where,
      PACER_PORT: String(await freePort()),
      WHATSAPP_APP_SECRET: SECRET,
      WHATSAPP_VERIFY_TOKEN: 'v',
    };
    delete env['WHATSAPP_ACCESS_TOKEN'];
    const child = spawn(process.execPath, ['bin/pacer.js', 'serve', '--no-dispatch'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (b: Buffer) => (output += b.toString('utf8')));
    child.stderr?.on('data', (b: Buffer) => (output += b.toString('utf8')));

    const drained = await eventually(async () => (await store.listUnprocessedInbox(0, 1)).length === 0, Date.now() + 25_000, 100);
    expect(drained, output).toBe(true);
    expect(output).toContain('Not dispatching');
    const contact = await store.findContact({ waId: '972987654321' });
    expect((await store.contactInbound(contact?.id ?? -1, LEFT_OVER + 1)).length).toBe(LEFT_OVER);
    expect(await store.listQuarantinedInbox(0, 1)).toEqual([]);
  }, 30_000);
});
