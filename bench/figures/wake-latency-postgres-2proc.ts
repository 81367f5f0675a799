import { wakeLatencyFigure } from '../fixtures/wake-latency.js';

export default wakeLatencyFigure({ backend: 'postgres', processes: 2, targetMs: 1000 });
