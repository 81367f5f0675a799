import { connect } from 'node:net';

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
      const head = Object.entries({ host: url.host, ...headers })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
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
