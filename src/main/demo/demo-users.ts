import { resolveSimulatorConfig, type SimulatorConfigInput, type SimUser } from '../../adapters/simulator/index.js';
import { generatePopulation } from '../../adapters/simulator/population.js';

/** The simulated population again from its seed, to judge who was really reachable. */
export function usersFor(simulator: SimulatorConfigInput): { users: readonly SimUser[] } {
  return { users: generatePopulation(resolveSimulatorConfig(simulator), Date.UTC(2026, 0, 5, 8, 0, 0)).users };
}
