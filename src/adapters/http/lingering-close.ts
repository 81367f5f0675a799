import { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long a refused client may go on sending (read and dropped) before its connection is cut. */
export const LINGER_MS = 1000;

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
  if (socket instanceof Socket) lingerOn(socket, lingerMs); // not an injected request's stand-in
  return reply.header('connection', 'close');
}

function lingerOn(socket: Socket, lingerMs: number): void {
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
}
