// `npx tsx bench/webhook-flood/run.ts [--signature none|bogus]`: the webhook endpoint under
// unauthenticated load. Starts the edge in a child process, opens 150 connections on loopback, each
// declaring a 3 MB body, sends about 2.9 MB of it slowly, then stalls; prints the server's resident
// memory before, at its peak, and after the clients have gone. Bounded: it ends itself within a
// minute whatever the server does.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const CONNECTIONS = 150;
const DECLARED = 3 * 1024 * 1024;
const SENT = DECLARED - 100 * 1024;
const CHUNK = 64 * 1024;
const CHUNK_EVERY_MS = 40; // about 1.6 MB/s per connection: the body takes ~2 s
const STALL_MS = 15_000;
const SETTLE_MS = 5_000;
const DEADLINE_MS = 55_000;

const { values } = parseArgs({ options: { signature: { type: 'string', default: 'bogus' } } });
const signature = values.signature === 'none' ? {} : { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` };

function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(line?.[1] ?? 0) / 1024);
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const server = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'server.ts')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const deadline = setTimeout(() => {
  process.stderr.write('webhook-flood: deadline reached, stopping\n');
  server.kill('SIGKILL');
  process.exit(1);
}, DEADLINE_MS);
const port = await new Promise<number>((resolve) => createInterface({ input: server.stdout }).once('line', (l) => resolve(Number(l))));
const pid = server.pid ?? 0;
await wait(1_000);
const before = rssMb(pid);

const statuses = new Map<string, number>();
let closedByServer = 0;
const sockets: Socket[] = [];
const closedByUs = new Set<Socket>();
const body = Buffer.alloc(CHUNK, 0x20);
for (let i = 0; i < CONNECTIONS; i++) {
  const socket = connect({ host: '127.0.0.1', port });
  sockets.push(socket);
  let answered = false;
  socket.on('error', () => undefined);
  socket.on('data', (data: Buffer) => {
    if (answered) return;
    answered = true;
    const status = /^HTTP\/1\.1 (\d{3})/.exec(data.toString('latin1'))?.[1] ?? '?';
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  });
  socket.on('close', () => {
    if (!closedByUs.has(socket)) closedByServer++;
  });
  socket.on('connect', () => {
    const head = Object.entries({
      host: `127.0.0.1:${port}`,
      'content-type': 'application/json',
      'content-length': String(DECLARED),
      ...signature,
    })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`POST /webhooks/whatsapp HTTP/1.1\r\n${head}\r\n`);
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.destroyed || sent >= SENT) {
        clearInterval(timer); // then stall: the rest of the body never comes
        return;
      }
      sent += CHUNK;
      socket.write(body);
    }, CHUNK_EVERY_MS);
  });
}

let peak = before;
const started = Date.now();
while (Date.now() - started < (SENT / CHUNK) * CHUNK_EVERY_MS + STALL_MS) {
  peak = Math.max(peak, rssMb(pid));
  await wait(250);
}
const stillOpen = sockets.filter((s) => !s.destroyed).length;
for (const s of sockets) {
  if (s.destroyed) continue;
  closedByUs.add(s);
  s.destroy();
}
await wait(SETTLE_MS);
const after = rssMb(pid);

server.kill('SIGTERM');
clearTimeout(deadline);
const answers = [...statuses].map(([s, n]) => `${n} × ${s}`).join(', ') || 'none';
console.log(
  JSON.stringify({
    signature: values.signature,
    connections: CONNECTIONS,
    rssMb: { before, peak, after },
    answers,
    closedByServer,
    openAtEndOfStall: stillOpen,
  }),
);
console.log(
  `RSS ${before} MB before, ${peak} MB at the peak, ${after} MB ${SETTLE_MS / 1000} s after the clients left; answers: ${answers}; ${closedByServer} connections closed by the server, ${stillOpen} still open after ${STALL_MS / 1000} s of stalling`,
);
