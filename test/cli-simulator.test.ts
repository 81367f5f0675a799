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

  it('refuses bad options with exit code 2', async () => {
    expect(
      await runCli(
        ['simulator', '--port', 'abc'],
        () => undefined,
        () => undefined,
      ),
    ).toBe(2);
    expect(
      await runCli(
        ['simulator', '--population', '0'],
        () => undefined,
        () => undefined,
      ),
    ).toBe(2);
  });
});
