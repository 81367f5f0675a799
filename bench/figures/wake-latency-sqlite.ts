import { wakeLatencyFigure } from '../fixtures/wake-latency.js';

export default wakeLatencyFigure({ backend: 'sqlite', processes: 1, targetMs: 100 });
