import { memoryFigure } from '../fixtures/memory-figure.js';

export default memoryFigure({
  name: 'memory-idle',
  figure:
    'Memory of an idle engine: startEngine on SQLite (webhook server, REST API, dispatcher and breaker loops), no traffic, in a process of its own',
  target: '≤ 120 MB',
  maxMb: 120,
  sending: false,
});
