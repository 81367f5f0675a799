import { createRequire } from 'node:module';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * Copies the WAL back into the database file from a second thread with its own connection.
 *
 * With SQLite's automatic checkpoint, the commit that crosses the threshold does the copy (and its
 * fsyncs) on the thread that committed: in a busy engine one commit in forty then takes tens of
 * milliseconds of the event loop. A PASSIVE checkpoint on another connection never blocks writers or
 * readers, so the engine thread only ever appends to the WAL.
 */
export class BackgroundCheckpointer {
  private constructor(private readonly worker: Worker) {}

  static start(file: string, everyMs = 200): BackgroundCheckpointer {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    // A plain CommonJS body: it runs the same under tsx and from the compiled output.
    const body = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
// A busy or failed pass is harmless: the WAL keeps every commit and the next pass catches up.
const run = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(run, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); run(); db.close(); parentPort.close(); });
`;
    const worker = new Worker(body, { eval: true, workerData: { driver, file, everyMs } });
    worker.unref(); // never what keeps a process alive
    return new BackgroundCheckpointer(worker);
  }

  /** A last checkpoint, then the thread ends. */
  async stop(): Promise<void> {
    const exited = once(this.worker, 'exit');
    this.worker.ref(); // an unreferenced thread would let the process end before it finished
    this.worker.postMessage('stop');
    await exited;
  }
}
