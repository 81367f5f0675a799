/**
 * Every performance figure the project promises, in the order of the benchmarks issue. A benchmark
 * names the row it fills (`row`); a row no benchmark fills yet shows as "not yet measured", so the
 * table in docs/performance.md always lists the whole promise, not only what happens to be measured.
 */
export interface CatalogueRow {
  id: string;
  figure: string;
  against: string;
  target: string;
}

export const CATALOGUE: readonly CatalogueRow[] = [
  {
    id: 'webhook-ack-sqlite',
    figure: 'Signed status webhooks acknowledged per second, durable, SQLite',
    against: 'no-op route',
    target: '≥ 65 % of no-op and ≥ 20,000/s; p99 ≤ 15 ms',
  },
  {
    id: 'webhook-ack-sqlite-full',
    figure: 'Same, with synchronous=FULL via group commit',
    against: 'no-op route',
    target: '≥ 8,000/s',
  },
  { id: 'webhook-ack-postgres', figure: 'Same, on PostgreSQL', against: 'no-op route', target: '≥ 8,000/s' },
  {
    id: 'inbox-keeps-up',
    figure:
      'Webhook storm: stored status webhooks applied per second while the edge acknowledges at full rate, and the lag at the end of the load',
    against: 'webhooks acknowledged per second in the same kind of storm',
    target: 'applying never lags acknowledging by more than a few seconds, on either backend',
  },
  {
    id: 'status-events',
    figure: 'Status events applied to contact state per second (dedupe, monotonic), in order / shuffled',
    against: 'raw inserts of the same rows',
    target: '≥ 100,000/s in order, ≥ 25,000/s shuffled',
  },
  {
    id: 'status-events-reducer',
    figure: 'The same, pure domain part only (reducer + monotonic status, no storage), in order / shuffled',
    against: 'raw in-memory inserts of the same rows',
    target: '≥ 100,000/s in order, ≥ 25,000/s shuffled (the storage-backed figure must meet it)',
  },
  {
    id: 'sends',
    figure: 'Sends per second through decide + outbox + client to the simulator',
    against: 'raw client → simulator',
    target: '≥ 1,000/s on one sender at < 50 % of a core; ≥ 80 % of raw',
  },
  {
    id: 'sends-many-numbers',
    figure: 'CPU per send from one process sending from 10 numbers at 80/s each',
    against: 'the same from one number',
    target: 'within 20 % of the one-number figure',
  },
  {
    id: 'simulator-capacity',
    figure: 'Simulator capacity: sends per second it answers through the Cloud API client on loopback',
    against: 'the same requests as bare undici POSTs',
    target: '≥ 5,000/s, so the simulator never limits the send figure above',
  },
  { id: 'decide', figure: 'decide calls per second', against: 'empty function', target: '≥ 1,000,000/s' },
  {
    id: 'reduce-contact',
    figure: 'reduceContact: contact events applied per second',
    against: 'raw loop copying the events',
    target: 'none set; tracked so a slower reducer shows up',
  },
  {
    id: 'campaign-start',
    figure: 'Campaign start: recipients materialised per second',
    against: 'bulk insert of the same rows',
    target: '100,000 in ≤ 1 s; 1,000,000 in ≤ 10 s with ≤ 250 MB RSS',
  },
  {
    id: 'csv-import',
    figure: 'Contacts imported per second from CSV, with validation, SQLite and PostgreSQL',
    against: 'parsing the file alone; the raw multi-row INSERT of the same rows',
    target: '≥ 50,000 rows/s',
  },
  {
    id: 'contacts-bulk-api',
    figure: 'Contacts upserted per second through the REST API (POST /api/v1/contacts/bulk, 5,000-row requests), SQLite and PostgreSQL',
    against: 'the same contacts through the CSV import use case',
    target: '≥ 50 % of the import rate',
  },
  { id: 'retry-wakeup', figure: 'Retry wake-up precision with 1,000,000 scheduled rows', against: '—', target: 'p99 ≤ 1 s late' },
  {
    id: 'wake-latency',
    figure: 'Enqueue to Cloud API request with the dispatcher idle, same process and across processes, SQLite and PostgreSQL',
    against: 'the dispatcher already awake',
    target: 'p99 ≤ 100 ms same process, ≤ 1 s across processes',
  },
  { id: 'dashboard-stats', figure: 'Dashboard campaign stats over 1,000,000 message rows', against: '—', target: 'p99 ≤ 50 ms' },
  {
    id: 'campaign-recipients',
    figure: "A page of a campaign's recipients through the REST API's read, at any depth of 1,000,000 message rows",
    against: 'the bare keyset read of the same pages',
    target: 'p99 ≤ 50 ms, the same at any depth',
  },
  {
    id: 'demo-worlds',
    figure: "The demo's week: Pacer's world (SQLite, HTTP server, signed webhooks) in seconds, 5,000 contacts",
    against: 'the naive world on the same simulator and seed',
    target: 'within 1.5× of the naive world; the whole demo, at its default audience, under a minute on 2 cores',
  },
  { id: 'memory', figure: 'Idle and full-rate memory', against: '—', target: '≤ 120 MB idle, ≤ 250 MB at full rate' },
  {
    id: 'events-out',
    figure:
      'Outbound events delivered per second to a local receiver, signed, in order per contact; lag from recording to the request leaving',
    against: 'the same number of plain HTTP POSTs to the same receiver, same concurrency',
    target: 'none set; tracked (deliveries must keep up with status webhooks)',
  },
  {
    id: 'postgres-workers',
    figure: 'PostgreSQL dispatch with 1/2/3 workers',
    against: '1 worker',
    target: 'near-linear until the database saturates',
  },
  {
    id: 'api-idempotent-post',
    figure: 'POST /api/v1/messages per second with an Idempotency-Key (claimed and answered in the database), SQLite',
    against: 'the same POST without the header',
    target: 'none set; tracked so the cost of the key shows (two writes a request)',
  },
  {
    id: 'cost-per-send-postgres',
    figure: 'Cost per send on PostgreSQL with 1/2/3 workers: server CPU, worker CPU, round trips, WAL bytes',
    against: 'raw SQL moving the same rows in the same batches; the same sends through one SQLite process',
    target: 'server CPU ≤ 0.2 ms per send; worker CPU per send ≤ 2× SQLite’s; ≥ 5,000 sends/s across workers',
  },
  {
    id: 'cost-per-webhook-postgres',
    figure: 'Cost per status webhook applied on PostgreSQL through serve --no-dispatch: server CPU, edge CPU, round trips, WAL bytes',
    against: 'raw SQL writing the same rows (inbox insert, status event, outbox outcome, inbox processed)',
    target: 'none set; tracked (it sizes the database for ~40,000 webhooks/s)',
  },
];
