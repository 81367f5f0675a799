import { webhookIngestBenchmark } from '../fixtures/webhook-ingest-rig.js';

export default webhookIngestBenchmark('postgres');
