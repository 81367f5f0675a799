import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/main/cli.js';

const run = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    (t) => out.push(t),
    (t) => err.push(t),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
};

describe('pacer explain', () => {
  it('prints the page for a code: meaning, cause, retry, effect, action', async () => {
    const r = await run('explain', '131049');
    expect(r.code).toBe(0);
    for (const part of ['Per-user marketing cap', 'What it means', 'Why it happens', 'Retry:', 'What to do', 'marketing_cool_off'])
      expect(r.out).toContain(part);
  });

  it('finds the entry from pasted English text in either spelling', async () => {
    for (const text of [
      'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
      'in order to maintain healthy ecosystem engagement the message failed to get delivered',
      'This message was not delivered to maintain healthy ecosystem engagement.',
    ]) {
      const r = await run('explain', text, '--json');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({ code: 131049, class: 'per_user_marketing_cap' });
    }
  });

  it('gives the catalogue entry with code and class as JSON', async () => {
    const r = await run('explain', '130472', '--json');
    expect(JSON.parse(r.out)).toMatchObject({ code: 130472, class: 'experiment_hold' });
  });

  it('says so and exits 1 for an unknown code or text', async () => {
    const r = await run('explain', '424242');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/No catalogue entry matches code 424242/);
    expect((await run('explain', 'zebra quantum marmalade')).code).toBe(1);
  });

  it('exits 2 on bad usage', async () => {
    expect((await run('explain')).code).toBe(2);
    expect((await run('no-such-command')).code).toBe(2);
  });

  it('runs as the installed bin with the documented exit codes', async () => {
    const exec = promisify(execFile);
    const ok = await exec('node', ['bin/pacer.js', 'explain', '131050', '--json']);
    expect(JSON.parse(ok.stdout)).toMatchObject({ code: 131050, class: 'user_stopped_marketing' });
    await expect(exec('node', ['bin/pacer.js', 'explain', '424242'])).rejects.toMatchObject({ code: 1 });
  });
});

describe('pacer config print', () => {
  it('prints the configuration with secrets redacted', async () => {
    process.env.WHATSAPP_ACCESS_TOKEN = 'EAAG-token-that-must-not-show';
    try {
      const r = await run('config', 'print');
      expect(r.code).toBe(0);
      expect(r.out).not.toContain('EAAG-token-that-must-not-show');
      expect(JSON.parse(r.out)).toMatchObject({ http: { host: '127.0.0.1', port: 3000 } });
    } finally {
      delete process.env.WHATSAPP_ACCESS_TOKEN;
    }
  });
});
