import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createCloudApiClient } from '../src/adapters/cloud-api/cloud-api-client.js';
import { runCli } from '../src/main/cli.js';

describe('pacer simulator', () => {
  it('serves the Cloud API until it is told to stop', async () => {
    const child = spawn('node', ['bin/pacer.js', 'simulator', '--port', '0', '--population', '50', '--json'], {
      env: { ...process.env, WHATSAPP_ACCESS_TOKEN: 'tok' },
    });
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    const info = JSON.parse(line.toString('utf8')) as { url: string; phoneNumberId: string; users: number };
    expect(info.users).toBe(50);
    const api = createCloudApiClient({ baseUrl: info.url, apiVersion: 'v24.0', phoneNumberId: info.phoneNumberId, accessToken: 'wrong' });
    const refused = await api.send({
      type: 'template',
      endpoint: 'messages',
      to: { kind: 'phone', phone: '4915112345678' },
      messageId: 'x',
      template: { name: 'order_update', language: 'en_US' },
    });
    expect(refused).toMatchObject({ kind: 'rejected', code: 190 });
    await api.close();
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it('serves several accounts and numbers, each account reached by its own token', async () => {
    const child = spawn(
      'node',
      ['bin/pacer.js', 'simulator', '--port', '0', '--population', '20', '--numbers', '2', '--accounts', '2', '--json'],
      {
        env: { ...process.env, WHATSAPP_ACCESS_TOKEN: 'tok', WHATSAPP_APP_SECRET: 'secret' },
      },
    );
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    const info = JSON.parse(line.toString('utf8')) as {
      url: string;
      accounts: Array<{
        wabaId: string;
        tokenHint: string;
        appSecretHint: string;
        numbers: Array<{ phoneNumberId: string; displayPhoneNumber: string }>;
      }>;
    };
    expect(info.accounts.map((a) => [a.wabaId, a.tokenHint, a.appSecretHint, a.numbers.map((n) => n.phoneNumberId)])).toEqual([
      ['100200300400500', '$WHATSAPP_ACCESS_TOKEN', '$WHATSAPP_APP_SECRET', ['106540352242922', '106540352242923']],
      ['100200300400501', '$WHATSAPP_ACCESS_TOKEN-2', '$WHATSAPP_APP_SECRET-2', ['106540352243922', '106540352243923']],
    ]);
    expect(line.toString('utf8')).not.toMatch(/"(tok|secret)(-2)?"/);
    const send = async (phoneNumberId: string, accessToken: string) => {
      const api = createCloudApiClient({ baseUrl: info.url, apiVersion: 'v24.0', phoneNumberId, accessToken });
      // Free-form text is taken at once (its window is judged later, in a webhook).
      const result = await api.send({ type: 'text', to: { kind: 'phone', phone: '4915112345678' }, messageId: 'x', body: 'hello' });
      await api.close();
      return result.kind === 'rejected' ? result.code : result.kind;
    };
    const secondNumberOfSecond = info.accounts[1]?.numbers[1]?.phoneNumberId ?? '';
    expect(await send(secondNumberOfSecond, 'tok-2')).toBe('accepted');
    expect(await send(secondNumberOfSecond, 'tok')).toBe(100);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it('refuses bad options with exit code 2', async () => {
    expect(
      await runCli(
        ['simulator', '--port', 'abc'],
        () => undefined,
        () => undefined,
      ),
    ).toBe(2);
    for (const bad of [
      ['--numbers', '0'],
      ['--accounts', '51'],
      ['--numbers', 'two'],
    ]) {
      expect(
        await runCli(
          ['simulator', ...bad],
          () => undefined,
          () => undefined,
        ),
      ).toBe(2);
    }
    expect(
      await runCli(
        ['simulator', '--population', '0'],
        () => undefined,
        () => undefined,
      ),
    ).toBe(2);
  });
});
