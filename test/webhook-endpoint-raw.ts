import { connect } from 'node:net';

/** A POST's request line and headers, as written on a bare socket. */
function postHead(url: URL, headers: Record<string, string>, path = '/webhooks/whatsapp'): string {
  const head = Object.entries({ host: url.host, ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return `POST ${path} HTTP/1.1\r\n${head}\r\n`;
}

export interface RawReply {
  status: number;
  /** Body bytes the client managed to write before the answer came. */
  bytesWritten: number;
}

/**
 * A POST over a bare socket, for what an HTTP client library will not do: declare a length it never
 * sends, or keep streaming after the server answered. Stops writing as soon as the status line arrives.
 */
export function rawPost(
  origin: string,
  headers: Record<string, string>,
  chunks: readonly Buffer[],
  path = '/webhooks/whatsapp',
): Promise<RawReply> {
  const url = new URL(origin);
  const chunked = headers['transfer-encoding'] === 'chunked';
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    let answered = false;
    let received = '';
    let bytesWritten = 0;
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (status && !answered) {
        answered = true;
        socket.destroy();
        resolve({ status: Number(status[1]), bytesWritten });
      }
    });
    // Writing into a socket the server closed fails; the answer, if any, already arrived.
    socket.on('error', (error) => {
      if (!answered) reject(error);
    });
    socket.on('close', () => {
      if (!answered) reject(new Error(`connection closed without an HTTP answer (got ${JSON.stringify(received.slice(0, 80))})`));
    });
    socket.on('connect', () => {
      socket.write(postHead(url, headers, path));
      const writeNext = (i: number): void => {
        if (answered || socket.destroyed) return;
        const chunk = chunks[i];
        if (chunk === undefined) {
          if (chunked) socket.write('0\r\n\r\n');
          return;
        }
        const framed = chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
        bytesWritten += chunk.length;
        // The next chunk after a timer, not setImmediate: waiting for a timer runs the poll phase, so an
        // answer that arrived meanwhile is read before the next write can hit the reset that follows it.
        if (socket.write(framed)) setTimeout(() => writeNext(i + 1), 1);
        else socket.once('drain', () => writeNext(i + 1));
      };
      writeNext(0);
    });
  });
}

export interface LateReader {
  status: number;
  /** Body bytes written before the client began reading. */
  bytesWritten: number;
}

/**
 * A client that sends its body before it reads anything, as simple clients do: it writes without
 * pause for `writeForMs` (never past a declared length), reading nothing, then reads. A server that refuses the request and
 * closes at once resets the connection under the client's writes, and a reset makes the client's
 * system drop the answer it has not read yet: this fails with that reset instead of a status.
 */
export function postReadingLate(origin: string, headers: Record<string, string>, writeForMs: number): Promise<LateReader> {
  const url = new URL(origin);
  const chunked = headers['transfer-encoding'] === 'chunked';
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const framed = chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    socket.pause();
    let received = '';
    let bytesWritten = 0;
    let writing = true;
    socket.on('error', reject);
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (status) {
        socket.destroy();
        resolve({ status: Number(status[1]), bytesWritten });
      }
    });
    socket.on('close', () => reject(new Error(`connection closed without an HTTP answer (got ${JSON.stringify(received.slice(0, 80))})`)));
    socket.on('connect', () => {
      socket.write(postHead(url, headers));
      const declared = headers['content-length'] === undefined ? Infinity : Number(headers['content-length']);
      const writeMore = (): void => {
        if (!writing || socket.destroyed || bytesWritten + chunk.length > declared) return;
        if (socket.write(framed)) {
          bytesWritten += chunk.length;
          setImmediate(writeMore);
        } else socket.once('drain', writeMore);
      };
      writeMore();
      setTimeout(() => {
        writing = false;
        socket.resume();
      }, writeForMs);
    });
  });
}

/**
 * A chunked POST that never stops sending, reading as it goes: resolves with the status it read and
 * the error that ended its writing, once the server has cut the connection.
 */
export function postForever(
  origin: string,
  headers: Record<string, string>,
): Promise<{ status: number; endedBy: string; afterAnswerMs: number }> {
  const url = new URL(origin);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
  return new Promise((resolve) => {
    // Half-open allowed: the server's end of the connection does not stop its writing.
    const socket = connect({ host: url.hostname, port: Number(url.port), allowHalfOpen: true });
    let received = '';
    let endedBy = 'close';
    let answeredAt = 0;
    socket.on('data', (data: Buffer) => {
      if (received === '') answeredAt = performance.now();
      received += data.toString('latin1');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => void (endedBy = error.code ?? error.message));
    socket.on('close', () =>
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0),
        endedBy,
        afterAnswerMs: answeredAt === 0 ? 0 : performance.now() - answeredAt,
      }),
    );
    socket.on('connect', () => {
      socket.write(postHead(url, { 'transfer-encoding': 'chunked', ...headers }));
      const writeMore = (): void => {
        if (socket.destroyed) return;
        if (socket.write(framed)) setImmediate(writeMore);
        else socket.once('drain', writeMore);
      };
      writeMore();
    });
  });
}

/**
 * Writes `requests` (whole HTTP requests, one after another) on one connection at once and resolves
 * with everything the server answered, once it closes the connection.
 */
export function pipelined(origin: string, requests: readonly string[]): Promise<string> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    // Closes its side when the server closes its own, as clients do.
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    let received = '';
    socket.on('data', (data: Buffer) => void (received += data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
    socket.on('connect', () => socket.write(requests.join('')));
  });
}
