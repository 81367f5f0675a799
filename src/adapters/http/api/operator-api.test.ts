import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './operator-api.js';

describe('isLoopbackHost', () => {
  it('opens /metrics only for addresses nothing outside the machine can reach', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'pacer.example.com', '127.example.com', '128.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});
