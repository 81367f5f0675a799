// Kept for callers written before the generator moved to the simulator's prng module.
export { seededRandom } from '../../adapters/simulator/prng.js';
