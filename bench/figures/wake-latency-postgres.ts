import { wakeLatencyFigure } from '../fixtures/wake-latency.js';

export default wakeLatencyFigure({ backend: 'postgres', processes: 1, targetMs: 100 });
