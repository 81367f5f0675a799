/** Cloud API simulator: a faithful, seeded stand-in for Meta's API and webhooks. */
export { startSimulator, type Simulator } from './start-simulator.js';
export {
  DEFAULT_SIMULATOR_CONFIG,
  type SimulatorConfig,
  type SimulatorConfigInput,
  type SimTemplateConfig,
  type NightReactions,
} from './config.js';
export { resolveSimulatorConfig } from './resolve-config.js';
export {
  simulatedAccounts,
  MESSAGING_LIMITS,
  type MessagingLimit,
  type NameStatus,
  type PhoneNumberStatus,
  type SimAccountConfig,
  type SimNumberConfig,
  type SimulatedAccountsOptions,
} from './accounts-config.js';
export type { Fault } from './faults.js';
export type { GroundTruth, MessageTruth, NumberTruth, TemplateTruth } from './ground-truth.js';
export { deliveredAtNight, deliveredLate, deliveryDelayMs, summariseDeliveryTiming, type DeliveryTiming } from './delivery-timing.js';
export { isNightHour, localHour, type NightHours } from './local-time.js';
export type { SimUser } from './population.js';
export type { Rating } from './quality.js';
export { STOP_BUTTON } from './user-actions.js';
