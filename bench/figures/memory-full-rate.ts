import { memoryFigure } from '../fixtures/memory-figure.js';

export default memoryFigure({
  name: 'memory-full-rate',
  figure:
    "Memory of the engine sending at full rate: startEngine on SQLite, one number at 1,000/s to the simulator in another process, real clock (achieved rate and the engine process's CPU share as extras)",
  target: '≤ 250 MB',
  maxMb: 250,
  sending: true,
});
