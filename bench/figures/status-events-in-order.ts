import { statusEventsBenchmark } from '../fixtures/status-events-benchmark.js';

export default statusEventsBenchmark('in-order');
