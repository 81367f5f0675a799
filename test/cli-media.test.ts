import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../src/adapters/simulator/index.js';
import { runPacer as run } from './cli-run.js';

let dir: string;
let sim: Simulator | null = null;
const ENV = ['PACER_DATA_DIR', 'WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_API_BASE_URL'] as const;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pacer-media-'));
  process.env.PACER_DATA_DIR = dir;
});

afterEach(async () => {
  for (const name of ENV) delete process.env[name];
  await sim?.stop();
  sim = null;
  rmSync(dir, { recursive: true, force: true });
});

async function number(token?: string): Promise<Simulator> {
  sim = await startSimulator();
  process.env.WHATSAPP_API_BASE_URL = sim.url;
  process.env.WHATSAPP_ACCESS_TOKEN = token ?? sim.config.accessToken;
  process.env.WHATSAPP_PHONE_NUMBER_ID = sim.config.phoneNumberId;
  return sim;
}

function file(name: string, bytes: number): string {
  const at = path.join(dir, name);
  writeFileSync(at, Buffer.alloc(bytes, 7));
  return at;
}

describe('pacer media upload', () => {
  it('uploads an image as Meta’s form and prints its media id and expiry; the simulator knows the file', async () => {
    const s = await number();
    const result = await run('media', 'upload', file('spring-sale.jpg', 2048), '--json');
    expect(result.code).toBe(0);
    const out = JSON.parse(result.out) as { id: string; mimeType: string; bytes: number; expiresAt: string };
    expect(out).toMatchObject({ mimeType: 'image/jpeg', kind: 'image', bytes: 2048 });
    expect(Date.parse(out.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const media = await fetch(`${s.url}/v24.0/${out.id}`, { headers: { authorization: `Bearer ${s.config.accessToken}` } });
    expect(await media.json()).toMatchObject({ id: out.id, mime_type: 'image/jpeg', file_size: 2048 });
    const text = await run('media', 'upload', file('menu.pdf', 10));
    expect(text.out).toMatch(
      /^Uploaded menu\.pdf \(application\/pdf, 10 bytes\): media id \d+, valid until .*\nUse it in a campaign with --param header=media:\d+$/,
    );
  });

  it('refuses locally what Meta would refuse, before any request', async () => {
    await number();
    const gif = await run('media', 'upload', file('anim.gif', 10));
    expect(gif.code).toBe(2);
    expect(gif.err).toContain('WhatsApp does not take .gif files');
    const big = await run('media', 'upload', file('huge.png', 5 * 1024 * 1024 + 1));
    expect(big.err).toBe('pacer: huge.png is 5.0 MB; WhatsApp takes image files up to 5.0 MB');
    expect((await run('media', 'upload', path.join(dir, 'missing.jpg'))).err).toContain('missing.jpg: no such file');
    expect(sim?.groundTruth().requests ?? 0).toBe(0);
  });

  it('says what Meta answered when the upload is refused, and what is not configured', async () => {
    await number('wrong-token');
    const refused = await run('media', 'upload', file('a.jpg', 10));
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('upload failed, nothing was stored at Meta: Meta refused it: (#190)');
    delete process.env.WHATSAPP_PHONE_NUMBER_ID;
    expect((await run('media', 'upload', file('b.jpg', 10))).err).toBe(
      'pacer: WHATSAPP_PHONE_NUMBER_ID is not set: media are uploaded to the number that sends them.',
    );
  });
});
