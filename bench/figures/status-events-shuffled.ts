import { statusEventsBenchmark } from '../fixtures/status-events-benchmark.js';

export default statusEventsBenchmark('shuffled');
