import { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long a refused client may go on sending (read and dropped) before its connection is cut. */
export const LINGER_MS = 1000;

/** Connections answered with a refusal and closing: nothing more on them is served. */
const refused = new WeakSet<Socket>();

/**
 * Lingering close, for a request refused while its body may still be arriving. The answer says
 * `connection: close`, and Node ends the socket once it is written, then destroys it. Destroying a
 * socket with the client's bytes still coming makes the system reset the connection, and a reset
 * makes the client's system drop the answer it has not read yet: a client writing its body before
 * reading (most do) would see "connection reset" instead of the 413 or 401. So the connection stays
 * half-open for a moment: what still arrives is read and dropped (nothing is kept), and it closes when
 * the client stops sending or after `lingerMs`, whichever is first.
 */
export function closeAfterLinger(request: FastifyRequest, reply: FastifyReply, lingerMs = LINGER_MS): FastifyReply {
  const socket: unknown = request.raw.socket;
  // A body the route began to read is piped to its parser; the rest of it goes nowhere now.
  request.raw.unpipe();
  request.raw.resume();
  if (socket instanceof Socket && !refused.has(socket)) {
    // Not an injected request's stand-in, and once per connection.
    refused.add(socket);
    const destroyNow = lingerOn(socket, lingerMs);
    // Should Node ever end the socket without destroying it, the connection still closes.
    reply.raw.once('finish', () => {
      const backstop = setTimeout(() => destroyNow(), 2 * lingerMs);
      backstop.unref();
      socket.once('close', () => clearTimeout(backstop));
    });
  }
  return reply.header('connection', 'close');
}

/**
 * A root `onRequest` hook: a request that arrives on a connection already refused (a client that
 * goes on sending after `connection: close`) is neither served nor counted; its answer could never
 * be written, and the connection is closing.
 */
export async function ignoreAfterRefusal(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const socket: unknown = request.raw.socket;
  if (!(socket instanceof Socket) || !refused.has(socket)) return undefined;
  request.raw.resume();
  return reply.hijack();
}

/** Defers the destroy that follows the answer; returns the socket's own destroy. */
function lingerOn(socket: Socket, lingerMs: number): (error?: Error) => Socket {
  const destroyNow = socket.destroy.bind(socket);
  // Node ends the socket after the answer and destroys it once the end is written: that first
  // destroy, without an error, is the one deferred. Any other (an error, the server closing) is not.
  socket.destroy = (error?: Error): Socket => {
    socket.destroy = destroyNow;
    if (error !== undefined || !socket.writableFinished || socket.readableEnded) return destroyNow(error);
    const timer = setTimeout(() => destroyNow(), lingerMs);
    timer.unref();
    socket.once('end', () => {
      clearTimeout(timer);
      destroyNow();
    });
    socket.once('close', () => clearTimeout(timer));
    socket.resume();
    return socket;
  };
  return destroyNow;
}
